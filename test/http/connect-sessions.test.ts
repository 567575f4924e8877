import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { problem, type Harness } from '../support/harness.js';
import { APP_CALLBACK, GATEWAY_URL, startConnectHarness } from '../support/oauth-server.js';
import { storedRow } from '../support/storage.js';
import { createConnectSession } from '../../src/domain/consent/sessions.js';
import { deleteOAuthApp } from '../../src/domain/oauth-apps.js';

/** The connect sessions and connections pages API: POST/GET /v1/connect/sessions, POST /v1/connect/connections-pages. */
for (const dialect of dialects) {
  describe(`connect sessions API [${dialect}]`, function () {
    let h: Harness;
    let close: () => Promise<void>;

    before(async function () {
      this.timeout(60000);
      ({ h, close } = await startConnectHarness(dialect, { rate_limits: { connect_sessions: 40 } }));
    });
    after(async () => close?.());

    const create = (payload: object, headers: Record<string, string> = {}) => h.request({ method: 'POST', url: '/v1/connect/sessions', payload, headers });

    async function tokenFor(principal: string) {
      const issued = await h.request({ method: 'POST', url: '/v1/tokens', payload: { principal } });
      return { authorization: `Bearer ${issued.json.token}` };
    }

    it('creates a session: 201 with exactly session_id, url and expires_at fifteen minutes ahead', async () => {
      const before = Date.now();
      const res = await create({ provider: 'oidc-test', principal: 'user:ada', redirect_uri: APP_CALLBACK, scopes: ['contacts.read'] });
      expect(res.statusCode).to.equal(201);
      expect(Object.keys(res.json).sort()).to.deep.equal(['expires_at', 'session_id', 'url']);
      expect(res.json.session_id).to.match(/^cs_[0-9a-z]{26}$/);
      expect(res.json.url).to.match(new RegExp(`^${GATEWAY_URL}/v1/hosted/connect/cs_[A-Za-z0-9_-]{43}$`));
      const expires = Date.parse(res.json.expires_at);
      expect(expires - before).to.be.within(899_000, 901_000);

      const read = await h.request({ method: 'GET', url: `/v1/connect/sessions/${res.json.session_id}` });
      expect(read.json).to.deep.equal({
        id: res.json.session_id,
        status: 'pending',
        principal: 'user:ada',
        provider: 'oidc-test',
        scopes: ['openid', 'profile', 'contacts.read'],
        redirect_uri: APP_CALLBACK,
        created_at: read.json.created_at,
        expires_at: res.json.expires_at,
      });
    });

    it('stores only a hash of the link secret', async () => {
      const res = await create({ provider: 'oidc-test', principal: 'user:ada' });
      const secret = res.json.url.split('/').pop();
      const row = await storedRow(h.gateway.db, 'connect_sessions', res.json.session_id);
      expect(JSON.stringify(row)).to.not.include(secret);
      expect(row!.secret_hash).to.match(/^[0-9a-f]{64}$/);
    });

    it('refuses bad input with 400 invalid_input naming the field', async () => {
      const cases: Array<[object, string]> = [
        [{ provider: 'nope', principal: 'user:ada' }, 'provider'],
        [{ provider: 'open-meteo', principal: 'user:ada' }, 'provider'],
        [{ provider: 'oidc-test', principal: 'user:ada', scopes: ['admin:everything'] }, 'scopes'],
        [{ provider: 'oidc-test', principal: 'user:ada', redirect_uri: 'https://evil.example/connected' }, 'redirect_uri'],
        [{ provider: 'oidc-test', principal: 'user:ada', redirect_uri: 'https://app.example/connected/other' }, 'redirect_uri'],
        [{ provider: 'oidc-test', principal: 'user:ada', redirect_uri: 'https://app.example:8443/connected' }, 'redirect_uri'],
        [{ provider: 'oidc-test', principal: 'user:ada', redirect_uri: 'http://app.example/connected' }, 'redirect_uri'],
        [{ provider: 'oidc-test', principal: 'bob' }, 'payload.principal'],
        [{ provider: 'oidc-test' }, 'payload.principal'],
        [{ principal: 'user:ada' }, 'payload.provider'],
        [{ provider: 'oidc-test', principal: 'user:ada', extra: 1 }, 'payload.extra'],
      ];
      for (const [payload, field] of cases) {
        const body = problem(await create(payload), 400, 'invalid_input');
        expect(body.invalid_params.map((p: { name: string }) => p.name), JSON.stringify(payload)).to.include(field);
      }
    });

    it('answers 409 oauth_app_required when the organization has no OAuth app and there is no managed one', async () => {
      await deleteOAuthApp(h.gateway, h.organizationId, 'oidc-test-post');
      problem(await create({ provider: 'oidc-test-post', principal: 'user:ada' }), 409, 'oauth_app_required');
    });

    it('lets a principal-bound token create and read sessions for itself only', async () => {
      const auth = await tokenFor('user:tok');
      problem(await create({ provider: 'oidc-test', principal: 'user:other' }, auth), 403, 'principal_forbidden');
      const own = await create({ provider: 'oidc-test', principal: 'user:tok' }, auth);
      expect(own.statusCode).to.equal(201);
      const other = await create({ provider: 'oidc-test', principal: 'user:someone' });
      expect((await h.request({ method: 'GET', url: `/v1/connect/sessions/${own.json.session_id}`, headers: auth })).statusCode).to.equal(200);
      problem(await h.request({ method: 'GET', url: `/v1/connect/sessions/${other.json.session_id}`, headers: auth }), 404, 'connect_session_not_found');
      const listed = await h.request({ method: 'GET', url: '/v1/connect/sessions', headers: auth });
      expect(listed.json.sessions.map((s: { principal: string }) => s.principal)).to.deep.equal(['user:tok']);
      problem(await h.request({ method: 'GET', url: '/v1/connect/sessions?principal=user:someone', headers: auth }), 403, 'principal_forbidden');
    });

    it('answers 404 connect_session_not_found for an unknown id, and 401 without a key', async () => {
      problem(await h.request({ method: 'GET', url: '/v1/connect/sessions/cs_nothing' }), 404, 'connect_session_not_found');
      problem(await h.request({ method: 'GET', url: '/v1/connect/sessions', headers: { authorization: null } }), 401, 'unauthenticated');
      problem(await create({ provider: 'oidc-test', principal: 'user:ada' }, { authorization: 'Bearer gw_live_nope' }), 401, 'invalid_token');
    });

    it('lists sessions newest first with principal and status filters, refusing an unknown status or cursor', async () => {
      // The oldest was made a lifetime and a moment ago: it has expired.
      const lifetime = h.gateway.config.connect.session_ttl_s * 1000;
      const aged = await createConnectSession(h.gateway, h.organizationId, { provider: 'oidc-test', principal: 'user:lister' }, Date.now() - lifetime - 1);
      const ids = [aged.session_id];
      for (let i = 0; i < 2; i++) ids.push((await create({ provider: 'oidc-test', principal: 'user:lister' })).json.session_id);
      const all = await h.request({ method: 'GET', url: '/v1/connect/sessions?principal=user:lister' });
      expect(all.statusCode).to.equal(200);
      expect(all.json.sessions.map((s: { id: string }) => s.id)).to.deep.equal([...ids].reverse());
      expect(all.json.next_cursor).to.equal(null);
      const pending = await h.request({ method: 'GET', url: '/v1/connect/sessions?principal=user:lister&status=pending' });
      expect(pending.json.sessions.map((s: { id: string }) => s.id)).to.deep.equal([ids[2], ids[1]]);
      const expired = await h.request({ method: 'GET', url: '/v1/connect/sessions?principal=user:lister&status=expired' });
      expect(expired.json.sessions.map((s: { id: string; status: string }) => [s.id, s.status])).to.deep.equal([[ids[0], 'expired']]);
      const completed = await h.request({ method: 'GET', url: '/v1/connect/sessions?principal=user:lister&status=completed' });
      expect(completed.json.sessions).to.deep.equal([]);
      problem(await h.request({ method: 'GET', url: '/v1/connect/sessions?status=done' }), 400, 'invalid_input');
      problem(await h.request({ method: 'GET', url: '/v1/connect/sessions?cursor=bogus' }), 400, 'invalid_input');
    });

    it('creates a signed connections page link for a principal, and for a token only its own', async () => {
      const res = await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:ada' } });
      expect(res.statusCode).to.equal(201);
      expect(Object.keys(res.json).sort()).to.deep.equal(['expires_at', 'url']);
      expect(res.json.url).to.match(new RegExp(`^${GATEWAY_URL}/v1/hosted/connections/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
      expect(Date.parse(res.json.expires_at) - Date.now()).to.be.within(3_590_000, 3_601_000);
      const auth = await tokenFor('user:tok');
      problem(await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:ada' }, headers: auth }), 403, 'principal_forbidden');
      expect((await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:tok' }, headers: auth })).statusCode).to.equal(201);
      problem(await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: {} }), 400, 'invalid_input');
    });

    it('rate limits session creation with 429 rate_limited and Retry-After', async () => {
      let limited;
      for (let i = 0; i < 90 && !limited; i++) {
        const res = await create({ provider: 'oidc-test', principal: 'user:flood' });
        if (res.statusCode === 429) limited = res;
      }
      expect(limited, 'never rate limited').to.not.equal(undefined);
      problem(limited!, 429, 'rate_limited');
      expect(limited!.headers['retry-after']).to.match(/^\d+$/);
    });
  });
}
