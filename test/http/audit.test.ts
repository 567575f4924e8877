import { expect } from 'chai';
import { insertCall, type CallRow } from '../../src/db/repos/calls.js';
import { callsSince } from '../../src/domain/audit/calls.js';
import { newId } from '../../src/domain/ids.js';
import { startRunFakes } from '../fixtures/run-providers.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const fakes = await startRunFakes();
after(() => fakes.close());

const CALL_KEYS = [
  'id', 'task', 'provider', 'principal', 'token_id', 'connection_id', 'identity', 'outcome', 'http_status', 'error_code',
  'quoted_usd', 'charged_usd', 'latency_ms', 'tag', 'approval_id', 'created_at', 'updated_at',
];
const DAY = 86_400_000;

function run(h: Harness, task: string, payload: object, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload, headers });
}

/** A settled call recorded by the run's own statement at a past time, for days and volumes a test cannot wait for. */
async function recordedCall(h: Harness, createdAt: number, fields: Partial<CallRow> = {}) {
  const row: CallRow = {
    id: newId('call', createdAt), organization_id: h.organizationId, task_id: 'rt-open.weather.now', provider: 'rt-open',
    principal: 'organization', token_id: 'key_seeded', connection_id: null, identity: 'anonymous', outcome: 'hit',
    http_status: 200, error_code: null, quoted_micros: 0, charged_micros: 0, latency_ms: 3, tag: null, approval_id: null,
    created_at: createdAt, updated_at: createdAt, ...fields,
  };
  await insertCall(h.gateway.db, row);
  return row.id;
}

eachDialect('audit: calls, captures and usage', (h) => {
  let hitId: string;
  let faultId: string;
  let taggedId: string;
  let tokenCallId: string;
  let tokenId: string;

  before(async () => {
    fakes.reset();
    fakes.open.on('GET', '/weather/Oslo', { json: { t: 1 } });
    fakes.mirror.on('GET', '/w', { json: { t: 2 } });
    hitId = (await run(h(), 'rt-open.weather.now', { city: 'Oslo' })).json.receipt.call_id;
    faultId = (await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { 'svc-only': 'rt-down' })).json.call_id;
    taggedId = (await run(h(), 'rt-mirror.weather.now', { city: 'Oslo' }, { 'svc-tag': 'batch-9', 'svc-principal': 'user:amy' })).json.receipt.call_id;
    const issued = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:amy' } });
    tokenId = issued.json.id;
    tokenCallId = (await run(h(), 'rt-open.weather.now', { city: 'Oslo' }, { authorization: `Bearer ${issued.json.token}` })).json.receipt.call_id;
  });

  it('lists calls newest first with exactly the Call fields', async () => {
    const res = await h().request({ method: 'GET', url: '/v1/calls' });
    expect(res.statusCode).to.equal(200);
    expect(Object.keys(res.json)).to.have.members(['calls', 'next_cursor']);
    expect(res.json.calls.map((c: { id: string }) => c.id)).to.deep.equal([tokenCallId, taggedId, faultId, hitId]);
    expect(Object.keys(res.json.calls[0])).to.have.members(CALL_KEYS);
    const tagged = res.json.calls[1];
    expect(tagged).to.include({ task: 'rt-mirror.weather.now', provider: 'rt-mirror', principal: 'user:amy', identity: 'anonymous', outcome: 'hit', http_status: 200, quoted_usd: 0.001, charged_usd: 0.001, tag: 'batch-9', error_code: null });
    expect(res.json.calls[2]).to.include({ outcome: 'fault', error_code: 'upstream_error', http_status: 502, charged_usd: 0 });
  });

  it('filters calls by task, provider, principal, outcome, token, connection and tag', async () => {
    const ids = async (query: string) => (await h().request({ method: 'GET', url: `/v1/calls?${query}` })).json.calls.map((c: { id: string }) => c.id);
    expect(await ids('task=rt-mirror.weather.now')).to.deep.equal([taggedId]);
    expect(await ids('provider=rt-down')).to.deep.equal([faultId]);
    expect(await ids('principal=user:amy')).to.deep.equal([tokenCallId, taggedId]);
    expect(await ids('outcome=fault')).to.deep.equal([faultId]);
    expect(await ids(`token=${tokenId}`)).to.deep.equal([tokenCallId]);
    expect(await ids('tag=batch-9')).to.deep.equal([taggedId]);
    expect(await ids('connection=conn_none')).to.deep.equal([]);
    expect(await ids('outcome=hit&principal=organization')).to.deep.equal([hitId]);
    problem(await h().request({ method: 'GET', url: '/v1/calls?outcome=maybe' }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: `/v1/calls?task=${'x'.repeat(101)}` }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/calls?principal=nobody' }), 400, 'invalid_input');
  });

  it('reads one call, and answers 404 call_not_found for unknown ids', async () => {
    const res = await h().request({ method: 'GET', url: `/v1/calls/${hitId}` });
    expect(res.statusCode).to.equal(200);
    expect(res.json).to.include({ id: hitId, outcome: 'hit' });
    problem(await h().request({ method: 'GET', url: '/v1/calls/call_nope' }), 404, 'call_not_found');
  });

  it('reads captures, lists them newest first, and answers 404 capture_not_found', async () => {
    const capture = await h().request({ method: 'GET', url: `/v1/calls/${hitId}/capture` });
    expect(capture.json).to.deep.equal({
      call_id: hitId, input: { city: 'Oslo' }, output: { t: 1 }, created_at: capture.json.created_at, input_bytes: 15, output_bytes: 7, truncated: [],
    });
    const fault = await h().request({ method: 'GET', url: `/v1/calls/${faultId}/capture` });
    expect(fault.json.output).to.equal(null);
    problem(await h().request({ method: 'GET', url: '/v1/calls/call_nope/capture' }), 404, 'capture_not_found');
    const list = await h().request({ method: 'GET', url: '/v1/captures' });
    expect(list.json.captures.map((c: { call_id: string }) => c.call_id)).to.deep.equal([tokenCallId, taggedId, faultId, hitId]);
    expect(list.json.next_cursor).to.equal(null);
  });

  it('keeps the audit endpoints away from principal-bound tokens', async () => {
    const issued = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:amy' } });
    const auth = { authorization: `Bearer ${issued.json.token}` };
    for (const url of ['/v1/calls', `/v1/calls/${hitId}`, `/v1/calls/${hitId}/capture`, '/v1/captures', '/v1/usage']) {
      problem(await h().request({ method: 'GET', url, headers: auth }), 403, 'role_forbidden');
    }
  });

  it('pages calls 50 at a time with next_cursor', async () => {
    const now = Date.now();
    for (let i = 0; i < 55; i++) await recordedCall(h(), now - 1000 + i, { tag: 'paging' });
    const first = await h().request({ method: 'GET', url: '/v1/calls?tag=paging' });
    expect(first.json.calls).to.have.length(50);
    const second = await h().request({ method: 'GET', url: `/v1/calls?tag=paging&cursor=${first.json.next_cursor}` });
    expect(second.json.calls).to.have.length(5);
    expect(second.json.next_cursor).to.equal(null);
    const all = [...first.json.calls, ...second.json.calls].map((c: { id: string }) => c.id);
    expect(new Set(all).size).to.equal(55);
    expect([...all].sort().reverse()).to.deep.equal(all);
    problem(await h().request({ method: 'GET', url: '/v1/calls?cursor=nonsense' }), 400, 'invalid_input');
  });

  it('callsSince returns calls after a given one, oldest first', async () => {
    const after = await callsSince(h().gateway, h().organizationId, faultId, { task: 'rt-open.weather.now', outcome: 'hit' });
    expect(after.map((c) => c.id)[0]).to.equal(tokenCallId);
    const all = await callsSince(h().gateway, h().organizationId, undefined, { provider: 'rt-mirror' });
    expect(all.map((c) => c.id)).to.deep.equal([taggedId]);
  });
}, { config: fakes.config() });

eachDialect('audit: usage per UTC day', (h) => {
  before(async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    await recordedCall(h(), today + 1000, { charged_micros: 2000 });
    await recordedCall(h(), today + 2000, { charged_micros: 500, token_id: 'tok_x' });
    await recordedCall(h(), today - DAY + 5, { charged_micros: 1_000_000 });
    await recordedCall(h(), today - 6 * DAY, { charged_micros: 1 });
    await recordedCall(h(), today - 7 * DAY, { charged_micros: 7 });
    await recordedCall(h(), today - 29 * DAY, { charged_micros: 3 });
    await recordedCall(h(), today - 30 * DAY, { charged_micros: 99 });
  });

  it('defaults to 7 days, today so far included, every day listed oldest first', async () => {
    const res = await h().request({ method: 'GET', url: '/v1/usage' });
    expect(res.statusCode).to.equal(200);
    expect(res.json.days).to.equal(7);
    expect(res.json.per_day).to.have.length(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.json.to).to.equal(today);
    expect(res.json.per_day.at(-1)).to.deep.equal({ date: today, calls: 2, charged_usd: 0.0025 });
    expect(res.json.per_day.at(-2).calls).to.equal(1);
    expect(res.json.per_day.at(-2).charged_usd).to.equal(1);
    expect(res.json.per_day[0]).to.include({ calls: 1, charged_usd: 0.000001 });
    expect(res.json.totals).to.deep.equal({ calls: 4, charged_usd: 1.002501 });
  });

  it('counts 1 and 30 days, and filters by token', async () => {
    const one = await h().request({ method: 'GET', url: '/v1/usage?days=1' });
    expect(one.json.per_day).to.have.length(1);
    expect(one.json.totals).to.deep.equal({ calls: 2, charged_usd: 0.0025 });
    const thirty = await h().request({ method: 'GET', url: '/v1/usage?days=30' });
    expect(thirty.json.per_day).to.have.length(30);
    expect(thirty.json.totals.calls).to.equal(6);
    const token = await h().request({ method: 'GET', url: '/v1/usage?days=7&token=tok_x' });
    expect(token.json.totals).to.deep.equal({ calls: 1, charged_usd: 0.0005 });
    expect(token.json.token).to.equal('tok_x');
    problem(await h().request({ method: 'GET', url: '/v1/usage?days=2' }), 400, 'invalid_input');
  });
}, { config: fakes.config() });
