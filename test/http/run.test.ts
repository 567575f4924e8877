import { expect } from 'chai';
import { findCall } from '../../src/db/repos/calls.js';
import { startRunFakes } from '../fixtures/run-providers.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';
import { STREAMED_ANSWER_BYTES } from '../../src/http/routes/tasks/run.js';

const fakes = await startRunFakes();
after(() => fakes.close());

async function callRow(h: Harness, id: string) {
  return (await findCall(h.gateway.db, h.organizationId, id))!;
}

async function countCalls(h: Harness): Promise<number> {
  const rows = await h.gateway.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM calls');
  return Number(rows[0].n);
}

function run(h: Harness, task: string, payload: unknown, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload: payload as object, headers });
}

eachDialect('run: anonymous tasks, receipts, request rendering and audit rows', (h) => {
  beforeEach(() => fakes.reset());

  it('sends an answer past STREAMED_ANSWER_BYTES in its pieces: the same bytes, the whole length declared', async () => {
    const city = 'x'.repeat(STREAMED_ANSWER_BYTES);
    fakes.open.on('GET', '/weather/Lima', { json: { temp: 19, conditions: [], city } });
    const res = await run(h(), 'rt-open.weather.now', { city: 'Lima' });
    expect(res.statusCode, res.payload).to.equal(200);
    expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.payload)).and.above(STREAMED_ANSWER_BYTES);
    expect(res.headers['transfer-encoding']).to.equal(undefined);
    expect(res.json.output).to.deep.equal({ temp: 19, conditions: [], city });
  });

  it('runs an anonymous task: the upstream answer unchanged, the exact receipt, a hit call and its capture', async () => {
    fakes.open.on('GET', '/weather/S%C3%A3o%20Paulo', { json: { temp: 21.5, conditions: ['sun'], city: 'São Paulo' } });
    const res = await run(h(), 'rt-open.weather.now', { city: 'São Paulo', units: 'metric' });
    expect(res.statusCode, res.payload).to.equal(200);
    // Joined, with its length declared (not chunked).
    expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.payload));
    expect(res.headers['transfer-encoding']).to.equal(undefined);
    expect(Object.keys(res.json)).to.deep.equal(['output', 'receipt']);
    expect(res.json.output).to.deep.equal({ temp: 21.5, conditions: ['sun'], city: 'São Paulo' });
    const { receipt } = res.json;
    expect(Object.keys(receipt).sort()).to.deep.equal(['call_id', 'charged_usd', 'identity', 'latency_ms', 'principal', 'quoted_usd']);
    expect(receipt).to.include({ identity: 'anonymous', principal: 'organization', quoted_usd: 0, charged_usd: 0 });
    expect(receipt.latency_ms).to.be.a('number').at.least(0);
    expect(res.headers.ratelimit).to.match(/^"run";r=\d+;t=\d+$/);

    const [received] = fakes.open.requests;
    expect(received.method).to.equal('GET');
    expect(received.path).to.equal('/weather/S%C3%A3o%20Paulo');
    expect(received.query).to.deep.equal({ units: 'metric', lang: 'en' });
    expect(received.headers.authorization).to.equal(undefined);

    const call = await callRow(h(), receipt.call_id);
    expect(call).to.include({ task_id: 'rt-open.weather.now', provider: 'rt-open', principal: 'organization', identity: 'anonymous', outcome: 'hit' });
    expect(Number(call.http_status)).to.equal(200);
    expect(Number(call.charged_micros)).to.equal(0);
    const capture = await h().request({ method: 'GET', url: `/v1/calls/${receipt.call_id}/capture` });
    expect(capture.statusCode).to.equal(200);
    expect(capture.json.input).to.deep.equal({ city: 'São Paulo', units: 'metric' });
    expect(capture.json.output).to.deep.equal(res.json.output);
  });

  it('leaves out query entries whose field is absent, and passes a text answer through unchanged', async () => {
    fakes.open.on('GET', '/weather/Oslo', { text: 'cold and clear' });
    const res = await run(h(), 'rt-open.weather.now', { city: 'Oslo' });
    expect(res.statusCode).to.equal(200);
    expect(res.json.output).to.equal('cold and clear');
    expect(fakes.open.requests[0].query).to.deep.equal({ lang: 'en' });
  });

  it('treats an empty list as a hit', async () => {
    fakes.open.on('GET', '/weather/Nowhere', { json: [] });
    const res = await run(h(), 'rt-open.weather.now', { city: 'Nowhere' });
    expect(res.statusCode).to.equal(200);
    expect(res.json.output).to.deep.equal([]);
    expect((await callRow(h(), res.json.receipt.call_id)).outcome).to.equal('hit');
  });

  it('makes an upstream 404 a hit only where the task declares not_found: empty', async () => {
    fakes.open.on('GET', '/things/none', { status: 404, json: { items: [] } });
    const hit = await run(h(), 'rt-open.things.get', { id: 'none' });
    expect(hit.statusCode).to.equal(200);
    expect(hit.json.output).to.deep.equal({ items: [] });

    const fault = await run(h(), 'rt-open.plain.get', { id: 'none' });
    const body = problem(fault, 502, 'upstream_error');
    const call = await callRow(h(), body.call_id);
    expect(call).to.include({ outcome: 'fault', error_code: 'upstream_error' });
    expect(Number(call.http_status)).to.equal(502);
    expect(Number(call.charged_micros)).to.equal(0);
  });

  it('runs utility tasks in-process with identity anonymous', async () => {
    const res = await run(h(), 'builtin.text.slugify', { text: 'Hello World' });
    expect(res.statusCode, res.payload).to.equal(200);
    expect(res.json.receipt.identity).to.equal('anonymous');
    const call = await callRow(h(), res.json.receipt.call_id);
    expect(call).to.include({ provider: 'builtin', outcome: 'hit' });
  });

  it('answers 400 invalid_input when a utility handler rejects its input, recorded as a fault charged 0', async () => {
    const body = problem(await run(h(), 'builtin.time.convert', { instant: '2026-01-01T00:00:00Z', timezone: 'Mars/Olympus' }), 400, 'invalid_input');
    expect(body.invalid_params[0].name).to.equal('timezone');
    const call = await callRow(h(), body.call_id);
    expect(call).to.include({ outcome: 'fault', error_code: 'invalid_input' });
    expect(Number(call.charged_micros)).to.equal(0);
  });

  it('answers 404 task_not_found and 410 task_retired / task_broken without recording a call', async () => {
    const before = await countCalls(h());
    problem(await run(h(), 'rt-open.nothing', {}), 404, 'task_not_found');
    problem(await run(h(), 'rt-open.old.get', {}), 410, 'task_retired');
    problem(await run(h(), 'rt-open.bad.get', {}), 410, 'task_broken');
    expect(await countCalls(h())).to.equal(before);
    expect(fakes.open.requests).to.have.length(0);
  });

  it('answers 400 invalid_input naming each failing field before any upstream call', async () => {
    const before = await countCalls(h());
    const body = problem(await run(h(), 'rt-open.weather.now', { units: 'kelvin', extra: 1 }), 400, 'invalid_input');
    const names = body.invalid_params.map((p: { name: string }) => p.name).sort();
    expect(names).to.deep.equal(['city', 'extra', 'units']);
    expect(fakes.open.requests).to.have.length(0);
    expect(await countCalls(h())).to.equal(before);
  });

  it('answers 400 invalid_input for malformed run headers', async () => {
    const cases: Array<[string, string]> = [
      ['svc-max-cost', 'cheap'],
      ['svc-fallback', 'anything'],
      ['svc-sort', 'price'],
      ['svc-zero-retention', 'yes'],
      ['svc-credential', 'abc'],
      ['svc-connection', 'x'.repeat(101)],
      ['svc-account', 'x'.repeat(321)],
      ['svc-tag', 'x'.repeat(201)],
      ['idempotency-key', 'x'.repeat(256)],
      ['svc-principal', 'someone'],
      ['svc-only', 'Not A Slug'],
    ];
    for (const [name, value] of cases) {
      const body = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { [name]: value }), 400, 'invalid_input');
      expect(body.invalid_params[0].name, name).to.equal(`headers.${name}`);
    }
    expect(fakes.open.requests).to.have.length(0);
  });

  it('answers 401 without a bearer credential and 413 for a body over the limit, before any upstream call', async () => {
    problem(await h().request({ method: 'POST', url: '/v1/tasks/rt-open.weather.now/run', payload: { city: 'Oslo' }, headers: { authorization: null } }), 401, 'unauthenticated');
    problem(await run(h(), 'rt-open.weather.now', { city: 'x'.repeat(1_100_000) }), 413, 'payload_too_large');
    problem(await run(h(), 'rt-open.weather.now', ['not', 'an', 'object']), 400, 'invalid_input');
    expect(fakes.open.requests).to.have.length(0);
  });

  it('answers 409 catalog_version_mismatch for a pinned version other than the served one, and runs on the right one', async () => {
    const body = problem(await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-version': '000000000000' }), 409, 'catalog_version_mismatch');
    expect(body.catalog_version).to.equal(h().gateway.catalog.version);
    fakes.open.on('GET', '/weather/Oslo', { json: { ok: true } });
    const res = await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-version': h().gateway.catalog.version });
    expect(res.statusCode).to.equal(200);
  });

  it('times out a slow upstream as a 502 upstream_error fault', async () => {
    fakes.open.on('GET', '/slow', { delayMs: 1500, json: { late: true } });
    // The detail says the timeout ended the wait, not the late answer: no wall-clock bound needed.
    const body = problem(await run(h(), 'rt-open.slow.get', {}), 502, 'upstream_error');
    expect(body.detail).to.equal('no route answered: rt-open: no answer within 1000 ms');
    const call = await callRow(h(), body.call_id);
    expect(call).to.include({ outcome: 'fault', error_code: 'upstream_error' });
  });

  it('stores svc-tag on the call and attributes the call to the calling key', async () => {
    fakes.open.on('GET', '/weather/Rome', { json: {} });
    const res = await run(h(), 'rt-open.weather.now', { city: 'Rome' }, { 'svc-tag': 'nightly-batch' });
    const call = await callRow(h(), res.json.receipt.call_id);
    expect(call.tag).to.equal('nightly-batch');
    const me = await h().request({ method: 'GET', url: '/v1/me' });
    expect(call.token_id).to.equal(me.json.key.id);
  });

  it('takes the principal from receipt_options, strips it from the input, and refuses a conflicting svc-principal', async () => {
    fakes.open.on('GET', '/weather/Lima', { json: {} });
    const res = await run(h(), 'rt-open.weather.now', { city: 'Lima', receipt_options: { principal: 'user:ada' } });
    expect(res.statusCode, res.payload).to.equal(200);
    expect(res.json.receipt.principal).to.equal('user:ada');
    const principals = await h().gateway.db.select<{ principal: string }>('SELECT principal FROM principals WHERE principal = $1', ['user:ada']);
    expect(principals).to.have.length(1);
    problem(
      await run(h(), 'rt-open.weather.now', { city: 'Lima', receipt_options: { principal: 'user:ada' } }, { 'svc-principal': 'user:bob' }),
      400,
      'invalid_input',
    );
  });
}, { config: fakes.config() });
