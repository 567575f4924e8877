import { expect } from 'chai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCall, findCapture } from '../../src/db/repos/calls.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const runCatalog = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'run-catalog.yaml');
const DEFAULT_NODES = 100000;
const TIMEOUT_MS = 300;

/**
 * An upstream whose answer to `GET /slow` is whatever the test sets as JSON text, sent whole at once; `then`
 * runs right after the answer is written (to keep the process busy, as a loaded gateway is).
 */
interface TextUpstream {
  url: string;
  requests: number;
  answer(text: string, then?: () => void): void;
  close(): Promise<void>;
}

async function startTextUpstream(): Promise<TextUpstream> {
  let text = 'null';
  let after: (() => void) | undefined;
  const upstream = {
    url: '',
    requests: 0,
    answer(next: string, then?: () => void) {
      text = next;
      after = then;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((_req, res: ServerResponse) => {
    upstream.requests++;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    after?.();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

const upstream = await startTextUpstream();
after(async () => upstream.close());

function run(h: Harness, task: string, payload: unknown, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload: payload as object, headers });
}

/** JSON text of `levels` arrays, one inside the other, around a number (JSON.stringify itself overflows at such depths). */
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
/** JSON text of an array of `count` zeros: `count` + 1 values. */
const zeros = (count: number) => `[${new Array(count).fill('0').join(',')}]`;

async function callOf(h: Harness, id: string) {
  return (await findCall(h.gateway.db, h.organizationId, id))!;
}

eachDialect(
  'run: what one input may cost',
  (h) => {
    // The input {document: [0, ...], path} holds the object, the array, its zeros and the path: zeros + 3 values.
    const document = (zeroCount: number) => `{"document":${zeros(zeroCount)},"path":"/0"}`;

    it(`takes an input of exactly limits.max_input_nodes (${DEFAULT_NODES}) values, and refuses one more as 400 invalid_input, recording nothing`, async () => {
      const within = await run(h(), 'builtin.json.extract', document(DEFAULT_NODES - 3));
      expect(within.statusCode, within.payload.slice(0, 300)).to.equal(200);
      expect(within.json.output).to.deep.equal({ path: '/0', found: true, value: 0 });
      const calls = (await h().gateway.db.select('SELECT id FROM calls')).length;
      const over = problem(await run(h(), 'builtin.json.extract', document(DEFAULT_NODES - 2)), 400, 'invalid_input');
      expect(over.invalid_params).to.deep.equal([{ name: 'input', reason: `holds more than ${DEFAULT_NODES} values` }]);
      expect(over).to.not.have.property('call_id');
      expect((await h().gateway.db.select('SELECT id FROM calls')).length).to.equal(calls);
    });

    it('refuses any other body past limits.max_input_nodes, naming the body', async () => {
      const body = `{"task":"weather","extra":${zeros(DEFAULT_NODES)}}`;
      const refused = problem(await h().request({ method: 'POST', url: '/v1/discover', payload: body }), 400, 'invalid_input');
      expect(refused.invalid_params).to.deep.equal([{ name: 'payload', reason: `holds more than ${DEFAULT_NODES} values` }]);
    });
  },
  { config: { catalog: { files: [runCatalog] } } },
);

eachDialect(
  'run: what one upstream answer may cost',
  (h) => {
    beforeEach(() => {
      upstream.requests = 0;
    });

    it(`takes an answer of exactly upstream.max_response_nodes (${DEFAULT_NODES}) values; one more is a 502 upstream_error naming the limit`, async () => {
      upstream.answer(zeros(DEFAULT_NODES - 1));
      const within = await run(h(), 'rt-open.slow.get', {});
      expect(within.statusCode, within.payload.slice(0, 300)).to.equal(200);
      expect(within.json.output).to.have.length(DEFAULT_NODES - 1);
      upstream.answer(zeros(DEFAULT_NODES));
      const over = problem(await run(h(), 'rt-open.slow.get', {}), 502, 'upstream_error');
      expect(over.detail).to.equal(`no route answered: rt-open: answer more than ${DEFAULT_NODES} values`);
      expect(await callOf(h(), over.call_id)).to.include({ outcome: 'fault', error_code: 'upstream_error' });
    });

    it('takes an answer nested 64 levels deep; 65 is a 502 upstream_error naming the limit', async () => {
      upstream.answer(nested(64));
      const within = await run(h(), 'rt-open.slow.get', {});
      expect(within.statusCode, within.payload.slice(0, 300)).to.equal(200);
      upstream.answer(nested(65));
      const over = problem(await run(h(), 'rt-open.slow.get', {}), 502, 'upstream_error');
      expect(over.detail).to.equal('no route answered: rt-open: answer nested deeper than 64 levels');
    });

    it('answers 100,000 nested arrays as a 502 with its call_id, audited as what the caller got, and replays it for an idempotent retry', async () => {
      upstream.answer(nested(100000));
      const headers = { 'idempotency-key': 'deep-answer' };
      const first = problem(await run(h(), 'rt-open.slow.get', {}, headers), 502, 'upstream_error');
      expect(first.detail).to.equal('no route answered: rt-open: answer nested deeper than 64 levels');
      const call = await callOf(h(), first.call_id);
      expect(call).to.include({ outcome: 'fault', error_code: 'upstream_error' });
      expect(Number(call.http_status)).to.equal(502);
      const capture = (await findCapture(h().gateway.db, h().organizationId, first.call_id))!;
      expect(capture.output).to.equal(null);
      const again = problem(await run(h(), 'rt-open.slow.get', {}, headers), 502, 'upstream_error');
      expect(again.call_id).to.equal(first.call_id);
      expect(upstream.requests).to.equal(1);
    });

    it(`counts the timeout on the upstream's own exchange: an answer sent at once is taken though the gateway was busy past upstream.timeout_ms`, async () => {
      // The answer leaves at once; then this process (the gateway's too) stays busy for well past the timeout.
      upstream.answer('{"ok":true}', () => {
        const until = Date.now() + TIMEOUT_MS * 3;
        while (Date.now() < until);
      });
      const answered = await run(h(), 'rt-open.slow.get', {});
      expect(answered.statusCode, answered.payload).to.equal(200);
      expect(answered.json.output).to.deep.equal({ ok: true });
      expect(await callOf(h(), answered.json.receipt.call_id)).to.include({ outcome: 'hit' });
    });
  },
  { config: { catalog: { files: [runCatalog] }, upstream: { timeout_ms: TIMEOUT_MS }, providers: { 'rt-open': { base_url: upstream.url } } } },
);
