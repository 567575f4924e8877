import { expect } from 'chai';
import { findCall } from '../../src/db/repos/calls.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import '../fixtures/run-providers.js';
import { closedPort } from '../support/fake-provider.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';
import { answerJsonString } from '../support/large-answer.js';
import { storedRow } from '../support/storage.js';

const runCatalog = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'run-catalog.yaml');
const LIMIT = 4096;
const TIMEOUT_MS = 1000;

/** How each answer of the answering upstream ended: whether all of it was written before the connection closed. */
const answers: Array<{ path: string; finished: boolean }> = [];

/**
 * The upstream of these tests, on loopback. GET /weather/<kind>-<bytes> answers a JSON string of that many
 * bytes, `sized` with a content-length, `chunked` without one; /weather/busy is a 503; /weather/silent never
 * answers; /w (the mirror route) answers a small JSON object.
 */
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  const answer = { path: url.pathname, finished: false };
  answers.push(answer);
  res.on('finish', () => (answer.finished = true));
  const sized = /^\/weather\/(sized|chunked)-(\d+)$/.exec(url.pathname);
  if (sized) {
    answerJsonString(res, Number(sized[2]), { sized: sized[1] === 'sized' });
  } else if (url.pathname === '/weather/busy') {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"busy"}');
  } else if (url.pathname === '/w') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ from: 'mirror', q: url.searchParams.get('q') }));
  } else if (url.pathname !== '/weather/silent') {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const refusedUrl = `http://127.0.0.1:${await closedPort()}`;
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function run(h: Harness, city: string, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: '/v1/tasks/rt-open.weather.now/run', payload: { city }, headers });
}

async function callRow(h: Harness, id: string) {
  return (await findCall(h.gateway.db, h.organizationId, id))!;
}

/** The capture as stored: its JSON text, whose length is what the limit bounds. */
async function captureOf(h: Harness, id: string) {
  return (await storedRow<{ input: string; output: string | null }>(h.gateway.db, 'captures', id, 'call_id'))!;
}

function baseConfig(providers: Record<string, string>, upstream: Record<string, number>) {
  return {
    catalog: { files: [runCatalog] },
    upstream,
    providers: Object.fromEntries(Object.entries(providers).map(([slug, url]) => [slug, { base_url: url }])),
  };
}

eachDialect(
  'run: upstream.max_response_bytes bounds what is read of an answer',
  (h) => {
    beforeEach(() => (answers.length = 0));

    for (const kind of ['sized', 'chunked']) {
      it(`takes an answer of exactly the limit (${kind})`, async () => {
        const res = await run(h(), `${kind}-${LIMIT}`, { 'svc-only': 'rt-open' });
        expect(res.statusCode, res.payload.slice(0, 300)).to.equal(200);
        expect(res.json.output).to.have.length(LIMIT - 2);
        expect((await captureOf(h(), res.json.receipt.call_id)).output).to.have.length(LIMIT);
      });

      it(`faults an answer one byte over the limit: 502 naming the limit, nothing of it captured (${kind})`, async () => {
        const body = problem(await run(h(), `${kind}-${LIMIT + 1}`, { 'svc-only': 'rt-open' }), 502, 'upstream_error');
        expect(body.detail).to.equal(`no route answered: rt-open: answer larger than ${LIMIT} bytes`);
        const call = await callRow(h(), body.call_id);
        expect(call).to.include({ outcome: 'fault', error_code: 'upstream_error', provider: 'rt-open' });
        expect(Number(call.charged_micros)).to.equal(0);
        expect((await captureOf(h(), body.call_id)).output).to.equal(null);
      });
    }

    it('stops reading at the limit: a large answer is cut off, never read to its end', async () => {
      for (const kind of ['sized', 'chunked']) {
        problem(await run(h(), `${kind}-${64 * 1024 * 1024}`, { 'svc-only': 'rt-open' }), 502, 'upstream_error');
      }
      // Had the gateway read an answer to its end, the upstream would have finished writing it before the run answered.
      expect(answers.map((a) => a.finished)).to.deep.equal([false, false]);
    });

    it('moves on to the next route when an answer is too large, as for any other fault', async () => {
      const res = await run(h(), `chunked-${LIMIT * 4}`);
      expect(res.statusCode, res.payload.slice(0, 300)).to.equal(200);
      expect(res.json.output).to.deep.equal({ from: 'mirror', q: `chunked-${LIMIT * 4}` });
      expect(answers.map((a) => a.path)).to.deep.equal([`/weather/chunked-${LIMIT * 4}`, '/w']);
      expect((await callRow(h(), res.json.receipt.call_id)).task_id).to.equal('rt-mirror.weather.now');
      expect((await captureOf(h(), res.json.receipt.call_id)).output).to.not.include('xxxx');
    });
  },
  { config: baseConfig({ 'rt-open': upstreamUrl, 'rt-mirror': upstreamUrl, 'rt-down': refusedUrl, 'rt-paid': refusedUrl }, { timeout_ms: 5000, max_response_bytes: LIMIT }) },
);

eachDialect(
  'run: an upstream fault says what failed and where, per route tried',
  (h) => {
    it('names a refused connection, an unresolvable host, a 503 and a route skipped for want of a credential, in route order', async () => {
      const body = problem(await run(h(), 'busy'), 502, 'upstream_error');
      expect(body.detail).to.equal(
        'no route answered: rt-open: HTTP 503; rt-mirror: could not resolve weather.invalid; rt-down: connect refused; rt-paid: skipped, no credential',
      );
      const call = await callRow(h(), body.call_id);
      expect(call).to.include({ outcome: 'fault', error_code: 'upstream_error' });
    });

    it('names a provider that never answers with the time it was given', async () => {
      const body = problem(await run(h(), 'silent', { 'svc-only': 'rt-open' }), 502, 'upstream_error');
      expect(body.detail).to.equal(`no route answered: rt-open: no answer within ${TIMEOUT_MS} ms`);
    });

    it('names each route once, each with its own fault', async () => {
      const body = problem(await run(h(), 'busy', { 'svc-only': 'rt-down,rt-mirror' }), 502, 'upstream_error');
      expect(body.detail).to.equal('no route answered: rt-mirror: could not resolve weather.invalid; rt-down: connect refused');
      expect(body.detail).to.not.match(/network|timeout/);
    });
  },
  {
    config: baseConfig(
      // RFC 6761: names under .invalid never resolve, so no lookup leaves the machine with an answer.
      { 'rt-open': upstreamUrl, 'rt-mirror': 'http://weather.invalid', 'rt-down': refusedUrl, 'rt-paid': upstreamUrl },
      { timeout_ms: TIMEOUT_MS },
    ),
  },
);
