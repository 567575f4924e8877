import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';

/** A request as a provider's API reference writes it, on the provider's own host. */
export interface DocumentedRequest {
  method: string;
  /** As sent on the wire: percent-encoded, the host's full path (Slack's starts with /api). */
  path: string;
  query?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** An application/x-www-form-urlencoded body, nested keys in brackets. */
  form?: Record<string, string>;
  /** Headers that must arrive with exactly these values (names lower-case), the credential's included. */
  headers?: Record<string, string>;
}

export interface DocumentedAnswer {
  status: number;
  /** The documented example answer, sent as JSON; absent: an empty body. */
  body?: unknown;
}

/** What arrived, in the shape of the DocumentedRequest it is compared with. */
export type ArrivedRequest = DocumentedRequest;

/**
 * One loopback server standing in for every provider: `/<slug>/...` is provider `slug`'s host. Armed with
 * the request a provider documents, it answers the documented example only when exactly that request
 * arrives, and 400 otherwise, so a wrong request can never pass as a hit.
 */
export interface StandIn {
  url: string;
  /** The base URL that puts provider `slug` on the stand-in, keeping the path of its catalog base URL. */
  baseUrlFor(slug: string, catalogBaseUrl: string): string;
  arm(slug: string, expected: DocumentedRequest, answer: DocumentedAnswer): void;
  /** Every request that arrived since the last arm. */
  arrived: ArrivedRequest[];
  close(): Promise<void>;
}

function arrivedAs(expected: DocumentedRequest, method: string, path: string, search: URLSearchParams, headers: IncomingHttpHeaders, body: string): ArrivedRequest {
  const query: Record<string, string> = {};
  for (const [name, value] of search) query[name] = name in query ? `${query[name]} | ${value}` : value;
  const arrived: ArrivedRequest = { method, path };
  if (expected.query !== undefined || search.size > 0) arrived.query = query;
  const type = String(headers['content-type'] ?? '');
  if (body !== '' || expected.json !== undefined || expected.form !== undefined) {
    if (type.startsWith('application/json')) arrived.json = safeJson(body);
    else if (type.startsWith('application/x-www-form-urlencoded')) arrived.form = Object.fromEntries(new URLSearchParams(body));
    else arrived.json = `(${type || 'no content-type'}) ${body}`;
  }
  if (expected.headers) {
    arrived.headers = Object.fromEntries(Object.keys(expected.headers).map((name) => [name, String(headers[name] ?? '(absent)')]));
  }
  return arrived;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return `(not JSON) ${text}`;
  }
}

export async function startStandIn(): Promise<StandIn> {
  let armed: { slug: string; expected: DocumentedRequest; answer: DocumentedAnswer } | undefined;
  const arrived: ArrivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = req.url ?? '/';
      const [rawPath, rawQuery = ''] = raw.split(/\?(.*)/s, 2);
      const [, slug = '', ...rest] = rawPath.split('/');
      const expected = armed?.slug === slug ? armed.expected : { method: '?', path: '?' };
      const request = arrivedAs(expected, req.method ?? 'GET', `/${rest.join('/')}`, new URLSearchParams(rawQuery), req.headers, Buffer.concat(chunks).toString('utf8'));
      arrived.push(request);
      if (!armed || armed.slug !== slug || !isDeepStrictEqual(request, expected)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not the documented request', arrived: request }));
        return;
      }
      const { status, body } = armed.answer;
      if (body === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    arrived,
    baseUrlFor: (slug, catalogBaseUrl) => `${url}/${slug}${new URL(catalogBaseUrl).pathname.replace(/\/+$/, '')}`,
    arm(slug, expected, answer) {
      armed = { slug, expected, answer };
      arrived.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
