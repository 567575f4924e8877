import { expect } from 'chai';
import { grantsOfConnection } from '../../src/db/repos/grants.js';
import { startRunFakes } from '../fixtures/run-providers.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';
import { storedRow } from '../support/storage.js';
import { fromStartOfMinute } from '../support/clock.js';

const fakes = await startRunFakes();
after(() => fakes.close());

const CONNECTION_KEYS = ['id', 'provider', 'principal', 'account_id', 'label', 'status', 'scopes', 'default', 'created_at', 'updated_at', 'last_used_at'];

async function events(h: Harness, connectionId: string): Promise<string[]> {
  const rows = await h.gateway.db.select<{ type: string; payload: string }>('SELECT type, payload FROM webhook_events ORDER BY created_at ASC, id ASC');
  return rows.filter((row) => JSON.parse(row.payload).data.connection.id === connectionId).map((row) => row.type);
}

/** The states of a connection's grants, oldest first. */
async function grants(h: Harness, connectionId: string): Promise<string[]> {
  return (await grantsOfConnection(h.gateway.db, connectionId)).map((grant) => grant.state).reverse();
}

/** The fake Mail provider's /me answers as the account whose access token is sent. */
function oauthAccounts() {
  fakes.oauth.on('GET', '/me', (req) => {
    const token = String(req.headers.authorization).replace('Bearer ', '');
    return { json: { id: `acct-${token}`, login: `login-${token}` } };
  });
}

async function token(h: Harness, principal: string): Promise<string> {
  return (await h.request({ method: 'POST', url: '/v1/tokens', payload: { principal } })).json.token;
}

eachDialect('connections: attach with a probe, list, read, change, revoke', (h) => {
  beforeEach(() => fakes.reset());

  const attach = (payload: object, headers: Record<string, string> = {}) => h().request({ method: 'POST', url: '/v1/connections', payload, headers });

  it('attaches an API key checked by the probe: the account from the probe, default, grant, event, the key encrypted', async () => {
    fakes.paid.on('GET', '/account', { json: { id: 4242, name: 'Acme Trading' } });
    const res = await attach({ provider: 'rt-paid', credential: 'paid-key-alpha' });
    expect(res.statusCode, res.payload).to.equal(200);
    expect(Object.keys(res.json)).to.have.members(CONNECTION_KEYS);
    expect(res.json).to.include({ provider: 'rt-paid', principal: 'organization', account_id: '4242', label: 'Acme Trading', status: 'active', default: true, last_used_at: null });
    expect(res.json.scopes).to.deep.equal([]);
    expect(res.json.id).to.match(/^conn_/);
    expect(fakes.paid.requests[0].headers.authorization).to.equal('Token paid-key-alpha');
    expect(res.payload).to.not.include('paid-key-alpha');

    const row = (await storedRow<{ credential: string }>(h().gateway.db, 'connections', res.json.id))!;
    expect(row.credential).to.not.include('paid-key-alpha');
    expect(JSON.parse(h().gateway.keyring.decrypt(row.credential))).to.deep.equal({ type: 'api_key', secret: 'paid-key-alpha' });
    expect(await events(h(), res.json.id)).to.deep.equal(['connection.created']);
    expect(await grants(h(), res.json.id)).to.deep.equal(['active']);
    const principal = await h().gateway.db.select('SELECT * FROM principals WHERE principal = $1', ['organization']);
    expect(principal).to.have.length(1);
  });

  it('sends the key in the query for providers that take it there, and reads nested account pointers', async () => {
    fakes.keyq.on('GET', '/whoami', { json: { account: { number: 'K-1', name: 'Key Person' } } });
    const res = await attach({ provider: 'rt-keyq', principal: 'user:kim', credential: 'query-key-1', label: 'work' });
    expect(res.statusCode, res.payload).to.equal(200);
    expect(res.json).to.include({ account_id: 'K-1', label: 'work', principal: 'user:kim' });
    expect(fakes.keyq.requests[0].query).to.deep.equal({ key: 'query-key-1' });
  });

  it('answers 422 credential_refused when the provider refuses the credential, and stores nothing', async () => {
    fakes.paid.on('GET', '/account', { status: 401, json: { error: 'bad key' } });
    const before = await h().gateway.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM connections');
    problem(await attach({ provider: 'rt-paid', credential: 'refused-key' }), 422, 'credential_refused');
    fakes.paid.on('GET', '/account', { status: 403, json: {} });
    problem(await attach({ provider: 'rt-paid', credential: 'refused-key' }), 422, 'credential_refused');
    const after = await h().gateway.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM connections');
    expect(Number(after[0].n)).to.equal(Number(before[0].n));
  });

  it('answers 503 probe_unavailable when the probe fails, times out or the provider errs', async () => {
    fakes.paid.on('GET', '/account', { status: 502, json: {} });
    problem(await attach({ provider: 'rt-paid', credential: 'some-key' }), 503, 'probe_unavailable');
    fakes.paid.on('GET', '/account', { delayMs: 1500, json: { id: 1 } });
    const body = problem(await attach({ provider: 'rt-paid', credential: 'some-key' }), 503, 'probe_unavailable');
    expect(body.detail).to.match(/in time/);
  });

  it('refuses unknown providers, providers without credentials and credentials of the wrong shape with 400', async () => {
    problem(await attach({ provider: 'nope', credential: 'abcd' }), 400, 'invalid_input');
    problem(await attach({ provider: 'rt-open', credential: 'abcd' }), 400, 'invalid_input');
    problem(await attach({ provider: 'rt-paid', credential: { access_token: 'abcd' } }), 400, 'invalid_input');
    problem(await attach({ provider: 'rt-oauth', credential: 'abcd' }), 400, 'invalid_input');
    problem(await attach({ provider: 'rt-paid', credential: 'abcd', principal: 'nobody' }), 400, 'invalid_input');
    problem(await attach({ provider: 'rt-paid' }), 400, 'invalid_input');
  });

  it('refuses a credential a header cannot carry (a control or non-Latin-1 character) as 400 naming the field, before any probe', async () => {
    for (const credential of ['key\u0001abc', 'key\u007fabc', 'ключ-1234', 'key\nX-Other: 1']) {
      const body = problem(await attach({ provider: 'rt-paid', credential }), 400, 'invalid_input');
      expect(body.invalid_params.map((p: { name: string }) => p.name)).to.deep.equal(['credential']);
    }
    const tokens = problem(await attach({ provider: 'rt-oauth', credential: { access_token: 'tok\rken' } }), 400, 'invalid_input');
    expect(tokens.invalid_params.map((p: { name: string }) => p.name)).to.deep.equal(['credential.access_token']);
    expect(fakes.paid.requests).to.have.length(0);
    expect(fakes.oauth.requests).to.have.length(0);
    // A key that travels in the query string is percent-encoded there: any text goes.
    fakes.keyq.on('GET', '/whoami', { json: { account: { number: 'k-1', name: 'Query' } } });
    const queried = await attach({ provider: 'rt-keyq', credential: 'ключ-1234' });
    expect(queried.statusCode, queried.payload).to.equal(200);
    expect(fakes.keyq.requests[0].query.key).to.equal('ключ-1234');
  });

  it('restores the same connection id for the same account: no event while active, connection.restored after revocation', async () => {
    oauthAccounts();
    const first = await attach({ provider: 'rt-oauth', principal: 'user:rita', credential: { access_token: 'rita1', scopes: ['profile'] } });
    expect(first.json).to.include({ account_id: 'acct-rita1', label: 'login-rita1', default: true });
    expect(first.json.scopes).to.deep.equal(['profile']);
    const again = await attach({ provider: 'rt-oauth', principal: 'user:rita', credential: { access_token: 'rita1', scopes: ['profile', 'mail.read'] } });
    expect(again.json.id).to.equal(first.json.id);
    expect(again.json.scopes).to.deep.equal(['profile', 'mail.read']);
    expect(await events(h(), first.json.id)).to.deep.equal(['connection.created']);

    const revoked = await h().request({ method: 'DELETE', url: `/v1/connections/${first.json.id}` });
    expect(revoked.statusCode).to.equal(200);
    expect(revoked.json).to.include({ status: 'revoked', default: false });
    const restored = await attach({ provider: 'rt-oauth', principal: 'user:rita', credential: { access_token: 'rita1' } });
    expect(restored.json).to.include({ id: first.json.id, status: 'active', default: true });
    expect(restored.json.scopes).to.deep.equal(['profile']);
    expect(await events(h(), first.json.id)).to.deep.equal(['connection.created', 'connection.revoked', 'connection.restored']);
    expect(await grants(h(), first.json.id)).to.deep.equal(['revoked', 'active']);
  });

  it('lists newest first with principal and provider filters, and reads a connection with its grants and last call', async () => {
    oauthAccounts();
    const a = await attach({ provider: 'rt-oauth', principal: 'user:lena', credential: { access_token: 'lena-a' } });
    const b = await attach({ provider: 'rt-oauth', principal: 'user:lena', credential: { access_token: 'lena-b' } });
    const list = await h().request({ method: 'GET', url: '/v1/connections?principal=user:lena' });
    expect(list.statusCode).to.equal(200);
    expect(list.json.connections.map((c: { id: string }) => c.id)).to.deep.equal([b.json.id, a.json.id]);
    expect(list.json.next_cursor).to.equal(null);
    expect(list.json.connections.map((c: { default: boolean }) => c.default)).to.deep.equal([false, true]);
    const none = await h().request({ method: 'GET', url: '/v1/connections?principal=user:lena&provider=rt-paid' });
    expect(none.json.connections).to.deep.equal([]);

    fakes.oauth.on('GET', '/me', { json: { id: 'x' } });
    const run = await h().request({ method: 'POST', url: '/v1/tasks/rt-oauth.profile.get/run', payload: {}, headers: { 'svc-principal': 'user:lena' } });
    expect(run.statusCode, run.payload).to.equal(200);
    const detail = await h().request({ method: 'GET', url: `/v1/connections/${a.json.id}` });
    expect(detail.statusCode).to.equal(200);
    expect(detail.json.last_call).to.deep.include({ id: run.json.receipt.call_id, task: 'rt-oauth.profile.get', outcome: 'hit' });
    expect(detail.json.grants).to.have.length(1);
    expect(detail.json.grants[0]).to.include({ state: 'active' });
    expect(detail.json.last_used_at).to.be.a('string');
    problem(await h().request({ method: 'GET', url: '/v1/connections/conn_unknown' }), 404, 'connection_not_found');
    problem(await h().request({ method: 'GET', url: '/v1/connections?principal=bad' }), 400, 'invalid_input');
  });

  it('pages connections with next_cursor', async () => {
    oauthAccounts();
    for (let i = 0; i < 52; i++) await attach({ provider: 'rt-oauth', principal: 'user:pager', credential: { access_token: `pager-${i}` } });
    const first = await h().request({ method: 'GET', url: '/v1/connections?principal=user:pager' });
    expect(first.json.connections).to.have.length(50);
    const second = await h().request({ method: 'GET', url: `/v1/connections?principal=user:pager&cursor=${first.json.next_cursor}` });
    expect(second.json.connections).to.have.length(2);
    expect(second.json.next_cursor).to.equal(null);
    problem(await h().request({ method: 'GET', url: '/v1/connections?cursor=bogus' }), 400, 'invalid_input');
  });

  it('moves the default with PATCH and changes the label; default only accepts true', async () => {
    oauthAccounts();
    const a = await attach({ provider: 'rt-oauth', principal: 'user:moe', credential: { access_token: 'moe-a' } });
    const b = await attach({ provider: 'rt-oauth', principal: 'user:moe', credential: { access_token: 'moe-b' } });
    const moved = await h().request({ method: 'PATCH', url: `/v1/connections/${b.json.id}`, payload: { default: true, label: 'personal' } });
    expect(moved.statusCode, moved.payload).to.equal(200);
    expect(moved.json).to.include({ default: true, label: 'personal' });
    const old = await h().request({ method: 'GET', url: `/v1/connections/${a.json.id}` });
    expect(old.json.default).to.equal(false);
    problem(await h().request({ method: 'PATCH', url: `/v1/connections/${a.json.id}`, payload: { default: false } }), 400, 'invalid_input');
    problem(await h().request({ method: 'PATCH', url: `/v1/connections/${a.json.id}`, payload: {} }), 400, 'invalid_input');
    problem(await h().request({ method: 'PATCH', url: '/v1/connections/conn_nope', payload: { label: 'x' } }), 404, 'connection_not_found');
  });

  it('revoking the default leaves the single remaining connection as default, or none when several remain', async () => {
    oauthAccounts();
    const ids = [];
    for (const t of ['ola-a', 'ola-b', 'ola-c']) ids.push((await attach({ provider: 'rt-oauth', principal: 'user:ola', credential: { access_token: t } })).json.id);
    await h().request({ method: 'DELETE', url: `/v1/connections/${ids[0]}` });
    const after = (await h().request({ method: 'GET', url: '/v1/connections?principal=user:ola' })).json.connections;
    expect(after.filter((c: { default: boolean }) => c.default)).to.have.length(0);
    await h().request({ method: 'PATCH', url: `/v1/connections/${ids[1]}`, payload: { default: true } });
    await h().request({ method: 'DELETE', url: `/v1/connections/${ids[1]}` });
    const last = await h().request({ method: 'GET', url: `/v1/connections/${ids[2]}` });
    expect(last.json.default).to.equal(true);
    const again = await h().request({ method: 'DELETE', url: `/v1/connections/${ids[1]}` });
    expect(again.json.status).to.equal('revoked');
    expect(await events(h(), ids[1])).to.deep.equal(['connection.created', 'connection.revoked']);
    problem(await h().request({ method: 'DELETE', url: '/v1/connections/conn_nope' }), 404, 'connection_not_found');
  });

  it('lets a principal-bound token list, read and revoke only its own connections, not create or change them', async () => {
    oauthAccounts();
    const own = await attach({ provider: 'rt-oauth', principal: 'user:tia', credential: { access_token: 'tia' } });
    const other = await attach({ provider: 'rt-oauth', principal: 'user:ugo', credential: { access_token: 'ugo' } });
    const auth = { authorization: `Bearer ${await token(h(), 'user:tia')}` };
    const list = await h().request({ method: 'GET', url: '/v1/connections', headers: auth });
    expect(list.json.connections.map((c: { id: string }) => c.id)).to.deep.equal([own.json.id]);
    problem(await h().request({ method: 'GET', url: '/v1/connections?principal=user:ugo', headers: auth }), 403, 'principal_forbidden');
    problem(await h().request({ method: 'GET', url: `/v1/connections/${other.json.id}`, headers: auth }), 404, 'connection_not_found');
    problem(await h().request({ method: 'DELETE', url: `/v1/connections/${other.json.id}`, headers: auth }), 404, 'connection_not_found');
    expect((await h().request({ method: 'GET', url: `/v1/connections/${own.json.id}`, headers: auth })).statusCode).to.equal(200);
    problem(await attach({ provider: 'rt-oauth', credential: { access_token: 'tia2' } }, auth), 403, 'role_forbidden');
    problem(await h().request({ method: 'PATCH', url: `/v1/connections/${own.json.id}`, payload: { label: 'x' }, headers: auth }), 403, 'role_forbidden');
    const revoked = await h().request({ method: 'DELETE', url: `/v1/connections/${own.json.id}`, headers: auth });
    expect(revoked.json.status).to.equal('revoked');
  });

  it("hides another organization's connections", async () => {
    oauthAccounts();
    const own = await attach({ provider: 'rt-oauth', principal: 'user:org1', credential: { access_token: 'org1' } });
    const { createOrganization } = await import('../../src/domain/organizations.js');
    const { createApiKey } = await import('../../src/domain/api-keys.js');
    const org = await createOrganization(h().gateway, `other-${h().dialect}`);
    const key = (await createApiKey(h().gateway, org.id, 'owner')).key;
    const auth = { authorization: `Bearer ${key}` };
    problem(await h().request({ method: 'GET', url: `/v1/connections/${own.json.id}`, headers: auth }), 404, 'connection_not_found');
    expect((await h().request({ method: 'GET', url: '/v1/connections', headers: auth })).json.connections).to.deep.equal([]);
  });
}, { config: fakes.config({ rate_limits: { connections: 10_000 } }) });

eachDialect('connections: rate limit', (h) => {
  fromStartOfMinute();
  it('answers 429 rate_limited past rate_limits.connections with Retry-After', async () => {
    fakes.paid.on('GET', '/account', { json: { id: 'rl', name: 'RL' } });
    for (let i = 0; i < 2; i++) {
      expect((await h().request({ method: 'POST', url: '/v1/connections', payload: { provider: 'rt-paid', credential: 'rate-key' } })).statusCode).to.equal(200);
    }
    const res = await h().request({ method: 'POST', url: '/v1/connections', payload: { provider: 'rt-paid', credential: 'rate-key' } });
    problem(res, 429, 'rate_limited');
    expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
  });
}, { config: fakes.config({ rate_limits: { connections: 2 } }) });
