import net from 'node:net';
import { expect } from 'chai';
import { eachDialect, type Harness } from '../support/harness.js';

const HEADERS_TIMEOUT_MS = 600;
const PAYLOAD_TIMEOUT_MS = 900;
/** What the limits promise: a slow client's socket is gone within its deadline plus a second. */
const GRACE_MS = 1000;

interface RawClient {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves true once the server has closed the connection, false if it is still open after `ms`. */
  closedWithin(ms: number): Promise<boolean>;
}

/**
 * A raw connection to the listening server. `holdOpen` keeps the client's side open after the server
 * ends its own (a client that never lets go): only the server destroying its socket frees it then.
 */
function connect(h: Harness, holdOpen = false): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: h.server.info.port as number, host: '127.0.0.1', allowHalfOpen: holdOpen });
    let data = '';
    let closed = false;
    const waiters: Array<() => void> = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      waiters.forEach((wake) => wake());
    });
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        closedWithin: (ms) =>
          closed
            ? Promise.resolve(true)
            : new Promise((done) => {
                const timer = setTimeout(() => done(closed), ms);
                waiters.push(() => {
                  clearTimeout(timer);
                  done(true);
                });
              }),
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `text` one byte at a time, every `everyMs`, while the socket is open. */
function trickle(client: RawClient, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (client.socket.destroyed || at >= text.length) return clearInterval(timer);
    client.socket.write(text[at++]);
  }, everyMs);
}

function parse(raw: string) {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [status, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(status.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

function expectProblem(raw: string, status: number, code: string) {
  const answer = parse(raw);
  expect(answer.status, raw).to.equal(status);
  expect(answer.headers['content-type']).to.match(/^application\/problem\+json/);
  const body = JSON.parse(answer.body);
  expect(body).to.include({ status, code });
  expect(body).to.have.all.keys('type', 'title', 'status', 'detail', 'code');
  return body;
}

function openConnections(h: Harness): Promise<number> {
  return new Promise((resolve, reject) => h.server.listener.getConnections((err, count) => (err ? reject(err) : resolve(count))));
}

/** Whether the server's open connections come to satisfy `wanted` within `withinMs`. */
async function connectionsCome(h: Harness, wanted: (count: number) => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (wanted(await openConnections(h))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

eachDialect(
  'slow and broken clients: every socket answered with an error is closed',
  (h) => {
    before(async () => h().server.start());

    it('answers 408 request_timeout to headers still trickling in after server.headers_timeout_ms, and closes the socket', async () => {
      const client = await connect(h());
      trickle(client, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(200), 100);
      expect(await client.closedWithin(HEADERS_TIMEOUT_MS + GRACE_MS)).to.equal(true);
      const body = expectProblem(client.received(), 408, 'request_timeout');
      expect(body.detail).to.contain(`${HEADERS_TIMEOUT_MS} ms`);
    });

    it('answers 408 to a body sent a byte at a time past server.payload_timeout_ms, and closes the socket', async () => {
      const client = await connect(h());
      const body = JSON.stringify({ principal: 'user:slow' });
      client.socket.write(
        `POST /v1/tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h().ownerKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      trickle(client, body, 200);
      expect(await client.closedWithin(PAYLOAD_TIMEOUT_MS + GRACE_MS)).to.equal(true);
      expectProblem(client.received(), 408, 'request_timeout');
      expect(await h().gateway.db.select("SELECT id FROM user_tokens WHERE principal = 'user:slow'")).to.have.length(0);
    });

    it('answers 408 when the announced body never comes', async () => {
      const client = await connect(h());
      client.socket.write(`POST /v1/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h().ownerKey}\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n`);
      expect(await client.closedWithin(PAYLOAD_TIMEOUT_MS + GRACE_MS)).to.equal(true);
      expectProblem(client.received(), 408, 'request_timeout');
    });

    it('gives back every socket of many idle and trickling clients within the deadline plus a second', async () => {
      const before = await openConnections(h());
      const clients = await Promise.all(Array.from({ length: 40 }, () => connect(h(), true)));
      clients.forEach((client, i) => (i % 2 ? trickle(client, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(500), 50) : undefined));
      expect(await connectionsCome(h(), (count) => count >= before + 40, GRACE_MS)).to.equal(true);
      expect(await connectionsCome(h(), (count) => count <= before, Math.max(HEADERS_TIMEOUT_MS, PAYLOAD_TIMEOUT_MS) + GRACE_MS)).to.equal(true);
      clients.forEach((client) => client.socket.destroy());
    });

    it('keeps answering requests that arrive in time', async () => {
      const client = await connect(h());
      client.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(await client.closedWithin(GRACE_MS)).to.equal(true);
      expect(parse(client.received()).status).to.equal(204);
    });
  },
  { config: { server: { public_url: 'http://gateway.test', headers_timeout_ms: HEADERS_TIMEOUT_MS, payload_timeout_ms: PAYLOAD_TIMEOUT_MS } } },
);

eachDialect(
  'broken clients under the default deadlines',
  (h) => {
    before(async () => h().server.start());

    it('destroys the socket of a malformed request even when the client keeps its side open', async () => {
      const before = await openConnections(h());
      const client = await connect(h(), true);
      client.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nBad Header: \x01\r\n\r\n');
      expect(await connectionsCome(h(), (count) => count <= before, GRACE_MS)).to.equal(true);
      expectProblem(client.received(), 400, 'invalid_input');
      client.socket.destroy();
    });

    it('answers problem+json to an HTTP/1.1 request without a Host header', async () => {
      const client = await connect(h());
      client.socket.write('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(await client.closedWithin(GRACE_MS)).to.equal(true);
      expectProblem(client.received(), 400, 'invalid_input');
    });
  },
  { config: { server: { public_url: 'http://gateway.test' } } },
);
