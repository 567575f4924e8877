import net from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { pino } from 'pino';
import { eachDialect, type Harness } from '../support/harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789';
const PAYLOAD_TIMEOUT_MS = 900;
const MAX_BODY = 64 * 1024;

interface RawExchange {
  /** Everything the server sent before the connection ended. */
  received: string;
  /** Whether the connection ended with a reset rather than a close. */
  reset: boolean;
}

/**
 * Opens a raw connection, writes `head`, then hands the socket to `send` (which may trickle or flood), and
 * resolves when the server ends the connection, or after `withinMs` with what came so far.
 */
function exchange(h: Harness, head: string, send: (socket: net.Socket) => void, withinMs = 5000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: h.server.info.port as number, host: '127.0.0.1' });
    let received = '';
    let reset = false;
    const done = () => resolve({ received, reset });
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, withinMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (reset ||= error.code === 'ECONNRESET' || error.code === 'EPIPE'));
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.once('connect', () => {
      socket.write(head);
      send(socket);
    });
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);

/** The request lines the gateway logs from now on, captured from its logger. */
function captureRequestLog(h: Harness): Array<{ path: string; status: number }> {
  const lines: Array<{ path: string; status: number }> = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const entry = JSON.parse(line);
        if (entry.msg === 'request') lines.push(entry);
      }
      callback();
    },
  });
  h.gateway.log = pino({ level: 'info', base: undefined }, sink);
  return lines;
}

/** gateway_http_requests_total by route, method and status, as /metrics counts them. */
async function requestCounts(h: Harness): Promise<Map<string, number>> {
  const scraped = await h.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const family = parsePrometheusTextFormat(scraped.payload).find((f) => f.name === 'gateway_http_requests_total');
  const counts = new Map<string, number>();
  for (const metric of (family?.metrics ?? []) as Array<{ labels: Record<string, string>; value: string }>) {
    counts.set(`${metric.labels.method} ${metric.labels.route} ${metric.labels.status}`, Number(metric.value));
  }
  return counts;
}

async function eventually(check: () => boolean | Promise<boolean>, withinMs = 2000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

eachDialect(
  'the access log and /metrics record the status the client got',
  (h) => {
    let log: Array<{ path: string; status: number }>;
    before(async () => {
      await h().server.start();
      log = captureRequestLog(h());
    });

    const webhookHead = (extra: string) =>
      `POST /v1/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h().ownerKey}\r\nContent-Type: application/json\r\n${extra}\r\n`;

    it('a body still trickling in past server.payload_timeout_ms: 408 answered, 408 logged and counted', async () => {
      const before = (await requestCounts(h())).get('POST /v1/webhooks 408') ?? 0;
      const body = '{"url":"https://example.com/hook"}';
      const answer = await exchange(h(), webhookHead(`Content-Length: ${body.length}\r\n`), (socket) => {
        let at = 0;
        const timer = setInterval(() => (socket.destroyed || at >= body.length ? clearInterval(timer) : socket.write(body[at++])), 200);
      });
      expect(statusOf(answer.received), answer.received).to.equal(408);
      expect(await eventually(() => log.some((line) => line.path === '/v1/webhooks' && line.status === 408)), JSON.stringify(log)).to.equal(true);
      expect(log.filter((line) => line.path === '/v1/webhooks').map((line) => line.status)).to.not.include(200);
      expect(await eventually(async () => (await requestCounts(h())).get('POST /v1/webhooks 408') === before + 1)).to.equal(true);
    });

    it('a chunked body growing past limits.max_body_bytes: cut off without an answer, logged and counted as status 0', async () => {
      log.length = 0;
      const chunk = 'x'.repeat(16 * 1024);
      const answer = await exchange(h(), webhookHead('Transfer-Encoding: chunked\r\n'), (socket) => {
        const more = () => {
          for (; sent < 2 * MAX_BODY && !socket.destroyed; sent += chunk.length) {
            if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', more);
          }
          if (!socket.destroyed) socket.write('0\r\n\r\n');
        };
        let sent = 0;
        more();
      });
      expect(answer).to.deep.equal({ received: '', reset: true });
      expect(await eventually(() => log.some((line) => line.path === '/v1/webhooks')), JSON.stringify(log)).to.equal(true);
      expect(log.filter((line) => line.path === '/v1/webhooks').map((line) => line.status)).to.deep.equal([0]);
      const counts = await requestCounts(h());
      expect(counts.get('POST /v1/webhooks 0')).to.equal(1);
      expect(counts.get('POST /v1/webhooks 200')).to.equal(undefined);
    });
  },
  {
    config: {
      server: { public_url: 'http://gateway.test', payload_timeout_ms: PAYLOAD_TIMEOUT_MS, headers_timeout_ms: 600 },
      metrics: { token: METRICS_TOKEN },
      limits: { max_body_bytes: MAX_BODY },
    },
  },
);

eachDialect(
  'a request without a Host header',
  (h) => {
    before(async () => h().server.start());

    it('is answered problem+json and its connection closed, though the client asked to keep it alive', async () => {
      const answer = await exchange(h(), 'GET /health HTTP/1.1\r\nConnection: keep-alive\r\n\r\n', () => undefined, 2000);
      expect(statusOf(answer.received), answer.received).to.equal(400);
      expect(answer.received).to.match(/content-type: application\/problem\+json/i);
      expect(answer.received).to.match(/connection: close/i);
      // The server closed it: `exchange` resolved on close, well before its two seconds.
      const closedInTime = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ port: h().server.info.port as number, host: '127.0.0.1' });
        const timer = setTimeout(() => {
          socket.destroy();
          resolve(false);
        }, 1500);
        socket.on('data', () => undefined);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
        socket.once('connect', () => socket.write('GET /health HTTP/1.1\r\n\r\n'));
      });
      expect(closedInTime).to.equal(true);
    });
  },
  { config: { server: { public_url: 'http://gateway.test' } } },
);
