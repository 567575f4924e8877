import { expect } from 'chai';
import { findCall, findCapture } from '../../src/db/repos/calls.js';
import { findIdempotencyKey } from '../../src/db/repos/idempotency.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/domain/idempotency.js';
import { startRunFakes } from '../fixtures/run-providers.js';
import { fromStartOfMinute, later } from '../support/clock.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const fakes = await startRunFakes();
after(() => fakes.close());

async function callRow(h: Harness, id: string) {
  return (await findCall(h.gateway.db, h.organizationId, id))!;
}

async function countCalls(h: Harness): Promise<number> {
  return Number((await h.gateway.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM calls'))[0].n);
}

function run(h: Harness, task: string, payload: object, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload, headers });
}

/** Every weather route answers, naming itself. */
function weatherEverywhere() {
  fakes.open.on('GET', '/weather/Oslo', { json: { from: 'open' } });
  fakes.mirror.on('GET', '/w', { json: { from: 'mirror' } });
  fakes.paid.on('GET', '/weather/Oslo', { json: { from: 'paid' } });
}

eachDialect('run: routing across the routes of a capability', (h) => {
  beforeEach(() => fakes.reset());

  it('tries the requested task first by default', async () => {
    weatherEverywhere();
    const res = await run(h(), 'rt-mirror.weather.now', { city: 'Oslo' });
    expect(res.json.output).to.deep.equal({ from: 'mirror' });
    expect(res.json.receipt).to.include({ quoted_usd: 0.001, charged_usd: 0.001, identity: 'anonymous' });
    expect(fakes.mirror.requests[0].query).to.deep.equal({ q: 'Oslo' });
  });

  it('svc-only limits the routes, svc-order puts providers first, svc-sort cost orders by price', async () => {
    weatherEverywhere();
    const only = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'rt-mirror' });
    expect(only.json.output.from).to.equal('mirror');
    const ordered = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-order': 'rt-mirror, rt-open' });
    expect(ordered.json.output.from).to.equal('mirror');
    const cheapest = await run(h(), 'rt-paid.weather.now', { city: 'Oslo' }, { 'svc-sort': 'cost', 'svc-fallback': 'platform' });
    expect(cheapest.json.output.from).to.equal('open');
    expect(cheapest.json.receipt).to.include({ quoted_usd: 0, charged_usd: 0 });
    const call = await callRow(h(), cheapest.json.receipt.call_id);
    expect(call).to.include({ task_id: 'rt-open.weather.now', provider: 'rt-open' });
  });

  it('answers 404 miss, recorded with outcome miss, when no route is left', async () => {
    const before = await countCalls(h());
    const body = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'nowhere' }), 404, 'miss');
    const call = await callRow(h(), body.call_id);
    expect(call).to.include({ outcome: 'miss', error_code: 'miss', task_id: 'rt-open.weather.now' });
    expect(Number(call.http_status)).to.equal(404);
    expect(Number(call.charged_micros)).to.equal(0);
    expect(await countCalls(h())).to.equal(before + 1);
    problem(await run(h(), 'rt-mirror.weather.now', { city: 'Oslo' }, { 'svc-only': 'rt-mirror', 'svc-max-cost': '0.0005' }), 404, 'miss');
    expect(fakes.mirror.requests).to.have.length(0);
  });

  it('svc-max-cost drops routes priced above it', async () => {
    weatherEverywhere();
    const res = await run(h(), 'rt-paid.weather.now', { city: 'Oslo' }, { 'svc-max-cost': '0.001', 'svc-order': 'rt-mirror', 'svc-fallback': 'platform' });
    expect(res.json.output.from).to.equal('mirror');
    expect(fakes.paid.requests).to.have.length(0);
  });

  it('svc-zero-retention: true keeps zero-retention providers and stores no capture', async () => {
    weatherEverywhere();
    const res = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-zero-retention': 'true' });
    expect(res.json.output.from).to.equal('mirror');
    problem(await h().request({ method: 'GET', url: `/v1/calls/${res.json.receipt.call_id}/capture` }), 404, 'capture_not_found');
    expect(await findCapture(h().gateway.db, h().organizationId, res.json.receipt.call_id)).to.equal(null);
    const kept = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-zero-retention': 'false' });
    expect(kept.json.output.from).to.equal('open');
    expect((await h().request({ method: 'GET', url: `/v1/calls/${kept.json.receipt.call_id}/capture` })).statusCode).to.equal(200);
  });

  it('moves to the next route after a network fault or a 5xx on an anonymous or platform route', async () => {
    weatherEverywhere();
    const res = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-order': 'rt-down,rt-open' });
    expect(res.statusCode, res.payload).to.equal(200);
    expect(res.json.output.from).to.equal('open');
    const call = await callRow(h(), res.json.receipt.call_id);
    expect(call).to.include({ outcome: 'hit', task_id: 'rt-open.weather.now' });

    fakes.paid.on('GET', '/weather/Oslo', { status: 503, json: { error: 'busy' } });
    const fromPlatform = await run(h(), 'rt-paid.weather.now', { city: 'Oslo' }, { 'svc-fallback': 'platform', 'svc-only': 'rt-paid,rt-mirror' });
    expect(fromPlatform.json.output.from).to.equal('mirror');
    expect(fromPlatform.json.receipt).to.include({ identity: 'anonymous', charged_usd: 0.001 });
    expect(fakes.paid.requests).to.have.length(1);
  });

  it('never moves a faulted customer credential to a route that charges', async () => {
    weatherEverywhere();
    fakes.paid.on('GET', '/weather/Oslo', { status: 500, json: {} });
    const body = problem(
      await run(h(), 'rt-paid.weather.now', { city: 'Oslo' }, { 'svc-credential': 'own-key-9', 'svc-only': 'rt-paid,rt-mirror' }),
      502,
      'upstream_error',
    );
    expect(fakes.mirror.requests).to.have.length(0);
    const call = await callRow(h(), body.call_id);
    expect(call).to.include({ outcome: 'fault', identity: 'credential', task_id: 'rt-paid.weather.now' });
    const free = await run(h(), 'rt-paid.weather.now', { city: 'Oslo' }, { 'svc-credential': 'own-key-9', 'svc-only': 'rt-paid,rt-open' });
    expect(free.json.output.from).to.equal('open');
    expect(free.json.receipt.charged_usd).to.equal(0);
  });

  it('answers 502 upstream_error, outcome fault, charged 0, when every route faulted', async () => {
    const body = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'rt-down' }), 502, 'upstream_error');
    expect(body.detail).to.equal('no route answered: rt-down: connect refused');
    const call = await callRow(h(), body.call_id);
    expect(call).to.include({ outcome: 'fault', error_code: 'upstream_error', provider: 'rt-down' });
    expect(Number(call.http_status)).to.equal(502);
    expect(Number(call.quoted_micros)).to.equal(500);
    expect(Number(call.charged_micros)).to.equal(0);
  });

  describe('idempotency-key', () => {
    it('returns the first answer for a repeat with the same body, without a second upstream call', async () => {
      weatherEverywhere();
      const headers = { 'idempotency-key': 'order-77' };
      const first = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, headers);
      const calls = await countCalls(h());
      const second = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, headers);
      expect(second.statusCode).to.equal(200);
      expect(second.json).to.deep.equal(first.json);
      expect(fakes.open.requests).to.have.length(1);
      expect(await countCalls(h())).to.equal(calls);
    });

    it('answers 400 invalid_input for the same key with a different body', async () => {
      weatherEverywhere();
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'idempotency-key': 'k-body' });
      const body = problem(await run(h(), 'rt-open.weather.now', { city: 'Bergen' }, { 'idempotency-key': 'k-body' }), 400, 'invalid_input');
      expect(body.invalid_params[0].name).to.equal('headers.idempotency-key');
    });

    it('takes the same body with its members in another order as the same request', async () => {
      weatherEverywhere();
      const headers = { 'idempotency-key': 'k-order', 'svc-tag': 'a', 'svc-only': 'rt-open' };
      const first = await h().request({ method: 'POST', url: '/v1/tasks/rt-open.weather.now/run', payload: '{"city":"Oslo","units":"metric"}', headers });
      const reordered = await h().request({ method: 'POST', url: '/v1/tasks/rt-open.weather.now/run', payload: '{"units":"metric","city":"Oslo"}', headers });
      expect(reordered.statusCode, reordered.payload).to.equal(200);
      expect(reordered.json.receipt.call_id).to.equal(first.json.receipt.call_id);
      expect(fakes.open.requests).to.have.length(1);
    });

    it('says which part of the request differs: the body, or only the headers', async () => {
      weatherEverywhere();
      await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'idempotency-key': 'k-part', 'svc-tag': 'a' });
      const headers = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'idempotency-key': 'k-part', 'svc-tag': 'b' }), 400, 'invalid_input');
      expect(headers.detail).to.equal('this idempotency-key was used with a different request (headers)');
      const body = problem(await run(h(), 'rt-open.weather.now', { city: 'Bergen' }, { 'idempotency-key': 'k-part', 'svc-tag': 'a' }), 400, 'invalid_input');
      expect(body.detail).to.equal('this idempotency-key was used with a different request (body)');
    });

    it('answers 409 idempotency_in_flight while the first request runs, then replays it', async () => {
      fakes.open.on('GET', '/slow', { delayMs: 500, json: { done: true } });
      const headers = { 'idempotency-key': 'slow-1' };
      const first = run(h(), 'rt-open.slow.get', {}, headers);
      await new Promise((resolve) => setTimeout(resolve, 200));
      problem(await run(h(), 'rt-open.slow.get', {}, headers), 409, 'idempotency_in_flight');
      const done = await first;
      expect(done.statusCode).to.equal(200);
      const replay = await run(h(), 'rt-open.slow.get', {}, headers);
      expect(replay.json.receipt.call_id).to.equal(done.json.receipt.call_id);
      expect(fakes.open.requests).to.have.length(1);
    });

    it('replays a failed answer too, and runs again once the key expired', async () => {
      const headers = { 'idempotency-key': 'fails-1' };
      const first = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { ...headers, 'svc-only': 'rt-down' }), 502, 'upstream_error');
      const again = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { ...headers, 'svc-only': 'rt-down' }), 502, 'upstream_error');
      expect(again.call_id).to.equal(first.call_id);
      // A second after the key expired, as the gateway sees it:
      await later(IDEMPOTENCY_TTL_MS + 1000, async () => {
        const fresh = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { ...headers, 'svc-only': 'rt-down' }), 502, 'upstream_error');
        expect(fresh.call_id).to.not.equal(first.call_id);
      });
      const row = (await findIdempotencyKey(h().gateway.db, h().organizationId, 'fails-1'))!;
      expect(Number(row.expires_at) - Number(row.created_at)).to.equal(24 * 3600 * 1000);
    });
  });
}, { config: fakes.config() });

eachDialect('run: svc-sort by observed latency and reliability', (h) => {
  before(async () => {
    fakes.reset();
    fakes.open.on('GET', '/weather/Oslo', { delayMs: 150, json: { from: 'open' } });
    let mirrorCalls = 0;
    fakes.mirror.on('GET', '/w', () => (++mirrorCalls % 2 ? { json: { from: 'mirror' } } : { status: 500, json: {} }));
    for (let i = 0; i < 3; i++) await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'rt-open' });
    for (let i = 0; i < 4; i++) await run(h(), 'rt-mirror.weather.now', { city: 'Oslo' }, { 'svc-only': 'rt-mirror' });
  });

  it('latency puts the fastest observed route first; reliability the one with the best hit rate', async () => {
    weatherEverywhere();
    const fastest = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-sort': 'latency' });
    expect(fastest.json.output.from).to.equal('mirror');
    const surest = await run(h(), 'rt-mirror.weather.now', { city: 'Oslo' }, { 'svc-sort': 'reliability' });
    expect(surest.json.output.from).to.equal('open');
  });
}, { config: fakes.config() });

eachDialect('run: rate limit', (h) => {
  fromStartOfMinute();
  it('answers 429 rate_limited past rate_limits.run, with Retry-After and RateLimit headers, recording no call', async () => {
    fakes.reset();
    weatherEverywhere();
    for (let i = 0; i < 3; i++) {
      const ok = await run(h(), 'rt-open.weather.now', { city: 'Oslo' });
      expect(ok.statusCode).to.equal(200);
      expect(ok.headers['ratelimit-policy']).to.equal('"run";q=3;w=60');
    }
    const calls = await countCalls(h());
    const res = await run(h(), 'rt-open.weather.now', { city: 'Oslo' });
    problem(res, 429, 'rate_limited');
    expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    expect(res.headers.ratelimit).to.match(/^"run";r=0;t=\d+$/);
    expect(await countCalls(h())).to.equal(calls);
    expect(fakes.open.requests).to.have.length(3);
  });
}, { config: fakes.config({ rate_limits: { run: 3 } }) });
