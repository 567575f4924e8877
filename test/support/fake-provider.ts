import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake provider received, exactly as it arrived. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status?: number;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as text/plain. */
  text?: string;
  /** Waits this long before answering (timeouts, requests in flight). */
  delayMs?: number;
  /** Extra response headers (a redirect's Location, for instance). */
  headers?: Record<string, string>;
}

export type FakeHandler = FakeReply | ((request: ReceivedRequest) => FakeReply);

/** A third-party API stand-in: a real HTTP server on 127.0.0.1 that records every request and answers as told. */
export interface FakeProvider {
  url: string;
  requests: ReceivedRequest[];
  /** Answers `METHOD /path` (path without query) with `reply` until told otherwise. */
  on(method: string, path: string, reply: FakeHandler): void;
  /** Forgets recorded requests and handlers. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const handlers = new Map<string, FakeHandler>();
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const handler = handlers.get(`${received.method} ${received.path}`);
      const reply: FakeReply = handler === undefined ? { status: 404, json: { error: 'no such route' } } : typeof handler === 'function' ? handler(received) : handler;
      const send = () => {
        if (res.destroyed) return;
        if (reply.text !== undefined) {
          res.writeHead(reply.status ?? 200, { ...reply.headers, 'content-type': 'text/plain' }).end(reply.text);
        } else {
          res.writeHead(reply.status ?? 200, { ...reply.headers, 'content-type': 'application/json' }).end(JSON.stringify(reply.json ?? null));
        }
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(method, path, reply) {
      handlers.set(`${method} ${path}`, reply);
    },
    reset() {
      requests.length = 0;
      handlers.clear();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on: requests to it are refused (an unreachable provider). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
