import { expect } from 'chai';
import { findCall } from '../../src/db/repos/calls.js';
import { listConnectSessions } from '../../src/domain/consent/sessions.js';
import { PLATFORM_KEY, startRunFakes } from '../fixtures/run-providers.js';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const fakes = await startRunFakes();
after(() => fakes.close());

async function callRow(h: Harness, id: string) {
  return (await findCall(h.gateway.db, h.organizationId, id))!;
}

function run(h: Harness, task: string, payload: object, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v1/tasks/${task}/run`, payload, headers });
}

/** The Mail provider's /me answers as the account of the bearer token, so each token is its own account. */
function oauthAccounts() {
  fakes.oauth.on('GET', '/me', (req) => {
    const token = String(req.headers.authorization).replace('Bearer ', '');
    return { json: { id: `acct-${token}`, login: `login-${token}` } };
  });
}

async function mailConnection(h: Harness, principal: string, token: string, scopes = ['profile', 'mail.read'], extra: object = {}) {
  oauthAccounts();
  const res = await h.request({ method: 'POST', url: '/v1/connections', payload: { provider: 'rt-oauth', principal, credential: { access_token: token, scopes, ...extra } } });
  expect(res.statusCode, res.payload).to.equal(200);
  return res.json;
}

async function paidConnection(h: Harness, principal: string, key: string) {
  fakes.paid.on('GET', '/account', { json: { id: `paid-${key}`, name: key } });
  const res = await h.request({ method: 'POST', url: '/v1/connections', payload: { provider: 'rt-paid', principal, credential: key } });
  expect(res.statusCode, res.payload).to.equal(200);
  return res.json;
}

function sessionIdOf(url: string): string {
  return url.split('/').pop()!;
}

eachDialect('run: credentials, connections and their errors', (h) => {
  beforeEach(() => fakes.reset());

  describe('svc-credential', () => {
    it('runs on the caller own secret: identity credential, charged 0, rendered into the provider header, never captured', async () => {
      fakes.paid.on('GET', '/quote/ACME', (req) => ({ json: { price: 12.5, echoed: req.headers.authorization } }));
      const res = await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-credential': 'customer-secret-1' });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.json.output).to.deep.equal({ price: 12.5, echoed: 'Token customer-secret-1' });
      expect(res.json.receipt).to.include({ identity: 'credential', quoted_usd: 0.002, charged_usd: 0 });
      expect(fakes.paid.requests[0].headers.authorization).to.equal('Token customer-secret-1');
      const capture = await h().request({ method: 'GET', url: `/v1/calls/${res.json.receipt.call_id}/capture` });
      expect(capture.payload).to.not.include('customer-secret-1');
      expect(capture.json.output.echoed).to.equal('[redacted]');
      const call = await callRow(h(), res.json.receipt.call_id);
      expect(call).to.include({ identity: 'credential', connection_id: null });
      expect(Number(call.charged_micros)).to.equal(0);
      expect(JSON.stringify(call)).to.not.include('customer-secret-1');
    });

    it('puts the key in the query for providers that take it there', async () => {
      fakes.keyq.on('GET', '/lookup', { json: { found: true } });
      const res = await run(h(), 'rt-keyq.lookup', { q: 'a b' }, { 'svc-credential': 'query-secret' });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(fakes.keyq.requests[0].query).to.deep.equal({ q: 'a b', key: 'query-secret' });
    });

    it('answers 401 connection_invalid when the provider refuses it, never falling back to the platform credential', async () => {
      fakes.paid.on('GET', '/quote/ACME', { status: 401, json: { error: 'bad key' } });
      const body = problem(await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-credential': 'wrong-secret', 'svc-fallback': 'platform' }), 401, 'connection_invalid');
      expect(fakes.paid.requests).to.have.length(1);
      const call = await callRow(h(), body.call_id);
      expect(call).to.include({ outcome: 'fault', error_code: 'connection_invalid', identity: 'credential' });
      expect(Number(call.charged_micros)).to.equal(0);
    });
  });

  describe('data and action tasks of credentialed providers', () => {
    it('answers 403 connection_required when no connection and no platform credential exist', async () => {
      const body = problem(await run(h(), 'rt-keyq.lookup', { q: 'x' }), 403, 'connection_required');
      expect(body.detail).to.match(/credential/);
      expect(fakes.keyq.requests).to.have.length(0);
    });

    it('answers 402 no_credential with a platform credential but no svc-fallback', async () => {
      problem(await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }), 402, 'no_credential');
      expect(fakes.paid.requests).to.have.length(0);
    });

    it('runs on the platform credential with svc-fallback: platform, charged the price', async () => {
      fakes.paid.on('GET', '/quote/ACME', { json: { price: 1 } });
      const res = await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-fallback': 'platform' });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.json.receipt).to.include({ identity: 'platform', quoted_usd: 0.002, charged_usd: 0.002 });
      expect(fakes.paid.requests[0].headers.authorization).to.equal(`Token ${PLATFORM_KEY}`);
      const call = await callRow(h(), res.json.receipt.call_id);
      expect(Number(call.charged_micros)).to.equal(2000);
      expect(Number(call.quoted_micros)).to.equal(2000);
    });

    it("uses the principal's connection, else the organization's, charged 0", async () => {
      const org = await paidConnection(h(), 'organization', 'org-paid-key');
      fakes.paid.on('GET', '/quote/ACME', { json: { price: 1 } });
      const viaOrg = await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-principal': 'user:pia' });
      expect(viaOrg.json.receipt).to.include({ identity: `connection:${org.id}`, principal: 'user:pia', charged_usd: 0 });
      expect(fakes.paid.requests.at(-1)!.headers.authorization).to.equal('Token org-paid-key');

      const own = await paidConnection(h(), 'user:pia', 'pia-paid-key');
      fakes.paid.on('GET', '/quote/ACME', { json: { price: 1 } });
      const viaOwn = await run(h(), 'rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-principal': 'user:pia' });
      expect(viaOwn.json.receipt).to.include({ identity: `connection:${own.id}`, charged_usd: 0 });
      expect(fakes.paid.requests.at(-1)!.headers.authorization).to.equal('Token pia-paid-key');
      const call = await callRow(h(), viaOwn.json.receipt.call_id);
      expect(call.connection_id).to.equal(own.id);
      await h().request({ method: 'DELETE', url: `/v1/connections/${own.id}` });
      await h().request({ method: 'DELETE', url: `/v1/connections/${org.id}` });
    });

    it('sends POST bodies as the input minus the path fields, with static headers and without hop-by-hop ones', async () => {
      fakes.paid.on('POST', '/accounts/A%2F1/orders', { status: 201, json: { order: 'o-1' } });
      const res = await run(h(), 'rt-paid.order.place', { account: 'A/1', symbol: 'ACME', quantity: 3 }, { 'svc-fallback': 'platform' });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.json.output).to.deep.equal({ order: 'o-1' });
      const [received] = fakes.paid.requests;
      expect(received.path).to.equal('/accounts/A%2F1/orders');
      expect(JSON.parse(received.body)).to.deep.equal({ symbol: 'ACME', quantity: 3 });
      expect(received.headers['content-type']).to.equal('application/json');
      expect(received.headers['x-client']).to.equal('gateway');
      expect(received.headers.connection).to.not.equal('close');
    });
  });

  describe('svc-connection', () => {
    it('answers 404 connection_not_found for an unknown id, 403 connection_forbidden for another principal', async () => {
      problem(await run(h(), 'rt-oauth.profile.get', {}, { 'svc-principal': 'user:ann', 'svc-connection': 'conn_missing' }), 404, 'connection_not_found');
      const bobs = await mailConnection(h(), 'user:bob', 'bob-token');
      const forbidden = problem(await run(h(), 'rt-oauth.profile.get', {}, { 'svc-principal': 'user:ann', 'svc-connection': bobs.id }), 403, 'connection_forbidden');
      // It says the connection is not the caller's, never whose it is.
      expect(forbidden.detail).to.equal(`connection ${bobs.id} is not yours to use; name one of your own connections or leave svc-connection out`);
      const orgPaid = await paidConnection(h(), 'user:bob', 'bob-paid');
      const other = problem(await run(h(), 'rt-paid.quote.get', { symbol: 'X' }, { 'svc-principal': 'user:ann', 'svc-connection': orgPaid.id }), 403, 'connection_forbidden');
      expect(JSON.stringify(other)).to.not.include('bob');
      expect(fakes.oauth.requests.filter((r) => r.path !== '/me')).to.have.length(0);
      await h().request({ method: 'DELETE', url: `/v1/connections/${orgPaid.id}` });
    });

    it('runs on the named connection, and refuses one of another provider with 400', async () => {
      const first = await mailConnection(h(), 'user:cai', 'cai-1');
      const second = await mailConnection(h(), 'user:cai', 'cai-2');
      fakes.oauth.on('GET', '/inbox', (req) => ({ json: { for: req.headers.authorization } }));
      const res = await run(h(), 'rt-oauth.inbox.list', { limit: 5 }, { 'svc-principal': 'user:cai', 'svc-connection': second.id });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.json.receipt.identity).to.equal(`connection:${second.id}`);
      expect(fakes.oauth.requests.at(-1)!.query).to.deep.equal({ limit: '5' });
      expect(fakes.oauth.requests.at(-1)!.headers.authorization).to.equal('Bearer cai-2');
      problem(await run(h(), 'rt-paid.quote.get', { symbol: 'X' }, { 'svc-principal': 'user:cai', 'svc-connection': first.id }), 400, 'invalid_input');
    });

    it('answers grant_required for a revoked connection', async () => {
      const gone = await mailConnection(h(), 'user:dee', 'dee-1');
      await h().request({ method: 'DELETE', url: `/v1/connections/${gone.id}` });
      const body = problem(await run(h(), 'rt-oauth.profile.get', {}, { 'svc-principal': 'user:dee', 'svc-connection': gone.id }), 403, 'grant_required');
      expect(body.connect_url).to.match(/^http:\/\/gateway\.test\/v1\/hosted\/connect\/cs_/);
    });
  });

  describe('account tasks', () => {
    it('answers 400 principal_required without a user principal, also for organization', async () => {
      problem(await run(h(), 'rt-oauth.inbox.list', {}), 400, 'principal_required');
      problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'organization' }), 400, 'principal_required');
      problem(await run(h(), 'rt-oauth.inbox.list', { receipt_options: { principal: 'organization' } }), 400, 'principal_required');
      await mailConnection(h(), 'organization', 'org-mail');
      problem(await run(h(), 'rt-oauth.inbox.list', {}), 400, 'principal_required');
      expect(fakes.oauth.requests.filter((r) => r.path === '/inbox')).to.have.length(0);
    });

    it('answers 403 grant_required with a connect_url for the task scopes when the user has no connection', async () => {
      const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:eve' }), 403, 'grant_required');
      expect(body.connect_url).to.match(/^http:\/\/gateway\.test\/v1\/hosted\/connect\/cs_/);
      const sessions = (await listConnectSessions(h().gateway, h().organizationId, { principal: 'user:eve' })).items;
      expect(sessions).to.have.length(1);
      expect(sessions[0].provider).to.equal('rt-oauth');
      expect(sessions[0].scopes).to.include('mail.read');
      expect(sessionIdOf(body.connect_url)).to.match(/^cs_/);
    });

    it('answers grant_required without a connect_url, saying the organization must set up its OAuth app, when no link can be made', async () => {
      const managedClient = process.env.RT_OAUTH_CLIENT_ID;
      delete process.env.RT_OAUTH_CLIENT_ID;
      try {
        const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:ned' }), 403, 'grant_required');
        expect(body).to.not.have.property('connect_url');
        expect(body.detail).to.equal('user:ned has not connected Mail Test; no connect link can be made until the organization sets up its OAuth app for Mail Test (PUT /v1/providers/rt-oauth/oauth-app)');
      } finally {
        process.env.RT_OAUTH_CLIENT_ID = managedClient;
      }
    });

    it('runs on the default connection as identity connection:<id>, charged 0, and touches last_used_at', async () => {
      const conn = await mailConnection(h(), 'user:fay', 'fay-1');
      fakes.oauth.on('GET', '/inbox', { json: { messages: [] } });
      const res = await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:fay' });
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.json.receipt).to.include({ identity: `connection:${conn.id}`, principal: 'user:fay', charged_usd: 0 });
      expect(fakes.oauth.requests.at(-1)!.headers.authorization).to.equal('Bearer fay-1');
      expect(fakes.oauth.requests.at(-1)!.query).to.deep.equal({});
      const read = await h().request({ method: 'GET', url: `/v1/connections/${conn.id}` });
      expect(read.json.last_used_at).to.be.a('string');
    });

    it('answers 409 connection_ambiguous with candidates when several connections and no default remain; svc-account and a new default resolve it', async () => {
      const a = await mailConnection(h(), 'user:gus', 'gus-a');
      const b = await mailConnection(h(), 'user:gus', 'gus-b');
      const c = await mailConnection(h(), 'user:gus', 'gus-c');
      await h().request({ method: 'DELETE', url: `/v1/connections/${a.id}` });
      const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:gus' }), 409, 'connection_ambiguous');
      expect(body.candidates).to.deep.equal([
        { id: b.id, label: 'login-gus-b', account_id: 'acct-gus-b' },
        { id: c.id, label: 'login-gus-c', account_id: 'acct-gus-c' },
      ]);
      fakes.oauth.on('GET', '/inbox', { json: [] });
      const byAccount = await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:gus', 'svc-account': 'acct-gus-c' });
      expect(byAccount.json.receipt.identity).to.equal(`connection:${c.id}`);
      const byLabel = await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:gus', 'svc-account': 'login-gus-b' });
      expect(byLabel.json.receipt.identity).to.equal(`connection:${b.id}`);
      problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:gus', 'svc-account': 'nobody' }), 404, 'connection_not_found');
      await h().request({ method: 'PATCH', url: `/v1/connections/${b.id}`, payload: { default: true } });
      const byDefault = await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:gus' });
      expect(byDefault.json.receipt.identity).to.equal(`connection:${b.id}`);
    });

    it('answers 403 scope_required with a connect_url asking for the missing scopes', async () => {
      await mailConnection(h(), 'user:hal', 'hal-1', ['profile']);
      const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:hal' }), 403, 'scope_required');
      expect(body.detail).to.include('mail.read');
      expect(body.connect_url).to.match(/\/v1\/hosted\/connect\/cs_/);
      const [session] = (await listConnectSessions(h().gateway, h().organizationId, { principal: 'user:hal' })).items;
      expect(session.scopes).to.include.members(['profile', 'mail.read']);
      expect(fakes.oauth.requests.filter((r) => r.path === '/inbox')).to.have.length(0);
    });

    it('marks a connection needs_reauth when the provider refuses it: 401 connection_invalid with reconnect_url, an event, no fallback', async () => {
      const conn = await mailConnection(h(), 'user:ivy', 'ivy-1');
      fakes.oauth.on('GET', '/inbox', { status: 401, json: { error: 'invalid_token' } });
      const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:ivy' }), 401, 'connection_invalid');
      expect(body.reconnect_url).to.match(/\/v1\/hosted\/connect\/cs_/);
      const call = await callRow(h(), body.call_id);
      expect(call).to.include({ outcome: 'fault', error_code: 'connection_invalid', connection_id: conn.id });
      expect(Number(call.http_status)).to.equal(401);
      expect(Number(call.charged_micros)).to.equal(0);
      const read = await h().request({ method: 'GET', url: `/v1/connections/${conn.id}` });
      expect(read.json.status).to.equal('needs_reauth');
      const events = await h().gateway.db.select<{ type: string; payload: string }>('SELECT type, payload FROM webhook_events ORDER BY created_at ASC, id ASC');
      const mine = events.filter((e) => JSON.parse(e.payload).data.connection.id === conn.id).map((e) => e.type);
      expect(mine).to.deep.equal(['connection.created', 'connection.needs_reauth']);

      // Before any upstream call now: the connection needs re-auth; the event is not emitted twice.
      const before = fakes.oauth.requests.length;
      const again = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:ivy' }), 401, 'connection_invalid');
      expect(again.reconnect_url).to.match(/\/v1\/hosted\/connect\/cs_/);
      expect(fakes.oauth.requests.length).to.equal(before);

      // A fresh credential for the same account restores it.
      const restored = await mailConnection(h(), 'user:ivy', 'ivy-1');
      expect(restored).to.include({ id: conn.id, status: 'active' });
    });

    it('answers connection_invalid for an expired access token that cannot be renewed', async () => {
      const conn = await mailConnection(h(), 'user:jon', 'jon-1', ['profile', 'mail.read'], { expires_at: new Date(Date.now() - 60_000).toISOString() });
      const body = problem(await run(h(), 'rt-oauth.inbox.list', {}, { 'svc-principal': 'user:jon' }), 401, 'connection_invalid');
      expect(fakes.oauth.requests.filter((r) => r.path === '/inbox')).to.have.length(0);
      expect((await callRow(h(), body.call_id)).error_code).to.equal('connection_invalid');
      expect((await h().request({ method: 'GET', url: `/v1/connections/${conn.id}` })).json.status).to.equal('needs_reauth');
    });
  });

  describe('principal-bound tokens', () => {
    it('run as their own principal and answer 403 principal_forbidden for another', async () => {
      const issued = await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:kai' } });
      const auth = { authorization: `Bearer ${issued.json.token}` };
      const conn = await mailConnection(h(), 'user:kai', 'kai-1');
      fakes.oauth.on('GET', '/inbox', { json: [] });
      const res = await run(h(), 'rt-oauth.inbox.list', {}, auth);
      expect(res.statusCode, res.payload).to.equal(200);
      expect(res.json.receipt).to.include({ principal: 'user:kai', identity: `connection:${conn.id}` });
      expect((await callRow(h(), res.json.receipt.call_id)).token_id).to.equal(issued.json.id);
      problem(await run(h(), 'rt-oauth.inbox.list', {}, { ...auth, 'svc-principal': 'user:other' }), 403, 'principal_forbidden');
      problem(await run(h(), 'rt-oauth.inbox.list', { receipt_options: { principal: 'organization' } }, auth), 403, 'principal_forbidden');
    });
  });
}, { config: fakes.config() });
