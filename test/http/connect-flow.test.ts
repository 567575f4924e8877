import { expect } from 'chai';
import { pino } from 'pino';
import { later } from '../support/clock.js';
import { dialects } from '../support/databases.js';
import type { Harness } from '../support/harness.js';
import {
  APP_CALLBACK,
  authorizeAtProvider,
  GATEWAY_URL,
  startConnectHarness,
  type OAuthServer,
  type TestBrowser,
} from '../support/oauth-server.js';
import { storedRow } from '../support/storage.js';
import { findConnectionById } from '../../src/db/repos/connections.js';
import { openCredential } from '../../src/domain/connections/credentials.js';
import { ensureFreshCredential, revokeAtProvider } from '../../src/domain/connections/oauth.js';
import { GatewayError } from '../../src/domain/errors.js';
import { setOrganizationStatus } from '../../src/domain/organizations.js';

/** The consent flow end to end against a real OAuth2/OIDC server (oidc-provider) on loopback. */
for (const dialect of dialects) {
  describe(`connect flow against a real OAuth server [${dialect}]`, function () {
    this.timeout(30000);
    let h: Harness;
    let oauth: OAuthServer;
    let newBrowser: () => TestBrowser;
    let close: () => Promise<void>;

    before(async function () {
      this.timeout(60000);
      ({ h, oauth, browser: newBrowser, close } = await startConnectHarness(dialect));
    });
    after(async () => close?.());

    async function createSession(body: Record<string, unknown> = {}) {
      const res = await h.request({
        method: 'POST',
        url: '/v1/connect/sessions',
        payload: { provider: 'oidc-test', principal: 'user:ada', redirect_uri: APP_CALLBACK, ...body },
      });
      expect(res.statusCode, res.payload).to.equal(201);
      return res.json as { session_id: string; url: string; expires_at: string };
    }

    /** Opens the link, presses Continue, and returns the provider's authorization URL. */
    async function continueFrom(browser: TestBrowser, url: string) {
      const page = await browser.go(url);
      expect(page.status).to.equal(200);
      const next = await browser.go(url, { form: {} });
      expect(next.status, next.body).to.equal(303);
      return next.location!;
    }

    async function consent(body: Record<string, unknown> = {}, login = 'ada-account') {
      const session = await createSession(body);
      const browser = newBrowser();
      const authorizeUrl = await continueFrom(browser, session.url);
      const callbackUrl = await authorizeAtProvider(browser, GATEWAY_URL, authorizeUrl, { login });
      const done = await browser.go(callbackUrl);
      return { session, browser, authorizeUrl, callbackUrl, done };
    }

    async function readSession(id: string) {
      const res = await h.request({ method: 'GET', url: `/v1/connect/sessions/${id}` });
      expect(res.statusCode).to.equal(200);
      return res.json;
    }

    it('shows a consent page naming the organization, provider and scopes, and loading it does not use the link', async () => {
      const session = await createSession({ scopes: ['contacts.read'] });
      const browser = newBrowser();
      for (let i = 0; i < 3; i++) {
        const page = await browser.go(session.url);
        expect(page.status).to.equal(200);
        expect(page.headers['content-type']).to.match(/^text\/html/);
        expect(page.headers['content-security-policy']).to.include("default-src 'none'");
        expect(page.headers['cache-control']).to.equal('no-store');
        expect(page.body).to.include('Connect your Example Accounts account');
        expect(page.body).to.include('<strong>default</strong>');
        for (const scope of ['openid', 'profile', 'contacts.read']) expect(page.body).to.include(`<li>${scope}</li>`);
        expect(page.body).to.match(/<form method="post" action="\/v1\/hosted\/connect\/cs_[A-Za-z0-9_-]+">/);
        expect(page.body).to.not.match(/<script/i);
      }
      expect((await readSession(session.session_id)).status).to.equal('pending');
      const row = (await storedRow<{ browser_hash: string | null; secret_hash: string }>(h.gateway.db, 'connect_sessions', session.session_id))!;
      expect(row.browser_hash).to.equal(null);
      expect(row.secret_hash).to.not.include(session.url.split('/').pop()!);
    });

    it('continues with PKCE (S256) and state, bound to the browser by an HttpOnly SameSite=Lax cookie', async () => {
      const session = await createSession();
      const browser = newBrowser();
      await browser.go(session.url);
      const res = await browser.go(session.url, { form: {} });
      expect(res.status).to.equal(303);
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).to.match(/^gw_connect=[A-Za-z0-9_-]{43};/);
      expect(cookie).to.match(/HttpOnly/);
      expect(cookie).to.match(/SameSite=Lax/);
      expect(cookie).to.match(/Path=\/v1\/hosted\/connect/);
      const authorize = new URL(res.location!);
      expect(authorize.origin).to.equal(oauth.issuer);
      expect(authorize.searchParams.get('code_challenge_method')).to.equal('S256');
      expect(authorize.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(authorize.searchParams.get('state')).to.have.length.greaterThan(20);
      expect(authorize.searchParams.get('client_id')).to.equal(oauth.clients.basic.client_id);
      expect(authorize.searchParams.get('redirect_uri')).to.equal(`${GATEWAY_URL}/v1/hosted/connect/callback`);
      const row = (await storedRow<{ oauth_state_hash: string; code_verifier: string }>(h.gateway.db, 'connect_sessions', session.session_id))!;
      expect(row.oauth_state_hash).to.match(/^[0-9a-f]{64}$/);
      expect(row.oauth_state_hash).to.not.equal(authorize.searchParams.get('state'));
      expect(row.code_verifier).to.match(/^k1\./);
    });

    it('completes consent: redirects to the allowlisted callback with session_id and status=completed, single use', async () => {
      const { session, browser, callbackUrl, done } = await consent();
      expect(done.status).to.equal(303);
      const landed = new URL(done.location!);
      expect(`${landed.origin}${landed.pathname}`).to.equal(APP_CALLBACK);
      expect(landed.searchParams.get('session_id')).to.equal(session.session_id);
      expect(landed.searchParams.get('status')).to.equal('completed');

      const read = await readSession(session.session_id);
      expect(read.status).to.equal('completed');
      expect(read.connection_id).to.match(/^conn_/);
      expect(read.principal).to.equal('user:ada');
      expect(read.provider).to.equal('oidc-test');

      const connection = await h.request({ method: 'GET', url: `/v1/connections/${read.connection_id}` });
      expect(connection.statusCode).to.equal(200);
      expect(connection.json.account_id).to.equal('ada-account');
      expect(connection.json.label).to.equal('Account ada-account');
      expect(connection.json.status).to.equal('active');
      expect(connection.payload).to.not.include('access_token');

      // The link and the callback are used up: a friendly page, never JSON, never a second connection.
      for (const again of [await browser.go(session.url), await browser.go(session.url, { form: {} }), await browser.go(callbackUrl)]) {
        expect(again.status).to.equal(404);
        expect(again.headers['content-type']).to.match(/^text\/html/);
        expect(again.body).to.match(/already been used|not valid or was already handled/);
        expect(again.body).to.not.match(/"code"|stack|at \w+ \(/);
      }
    });

    it('recognises the same provider account on a second consent and keeps one connection', async () => {
      const first = await consent({ principal: 'user:grace' }, 'grace-account');
      const second = await consent({ principal: 'user:grace' }, 'grace-account');
      const a = await readSession(first.session.session_id);
      const b = await readSession(second.session.session_id);
      expect(b.connection_id).to.equal(a.connection_id);
    });

    it('shows a done page when the session has no redirect_uri', async () => {
      const { done, session } = await consent({ redirect_uri: undefined, principal: 'user:noredirect' });
      expect(done.status).to.equal(200);
      expect(done.body).to.include('Your Example Accounts account is connected');
      expect(done.body).to.include('Account ada-account');
      expect((await readSession(session.session_id)).status).to.equal('completed');
    });

    it('exchanges the code with client_secret_post when the provider declares it', async () => {
      const { done, session } = await consent({ provider: 'oidc-test-post', principal: 'user:post' });
      expect(done.status, done.body).to.equal(303);
      expect((await readSession(session.session_id)).status).to.equal('completed');
    });

    it('refuses a callback from another browser than the one that pressed Continue', async () => {
      const session = await createSession();
      const browser = newBrowser();
      const authorizeUrl = await continueFrom(browser, session.url);
      const callbackUrl = await authorizeAtProvider(browser, GATEWAY_URL, authorizeUrl, { login: 'ada-account' });
      const stranger = newBrowser();
      const refused = await stranger.go(callbackUrl);
      expect(refused.status).to.equal(404);
      expect(refused.body).to.include('started in a different browser');
      expect((await readSession(session.session_id)).status).to.equal('pending');
      // The right browser still completes it.
      expect((await browser.go(callbackUrl)).status).to.equal(303);
    });

    it('lands a denial on a recovery page with a retry, never the success redirect', async () => {
      const session = await createSession();
      const browser = newBrowser();
      const authorizeUrl = await continueFrom(browser, session.url);
      const callbackUrl = await authorizeAtProvider(browser, GATEWAY_URL, authorizeUrl, { login: 'ada-account', deny: true });
      expect(new URL(callbackUrl).searchParams.get('error')).to.equal('access_denied');
      const page = await browser.go(callbackUrl);
      expect(page.status).to.equal(200);
      expect(page.location).to.equal(undefined);
      expect(page.body).to.include('Access was not granted');
      expect(page.body).to.include(`action="/v1/hosted/connect/sessions/${session.session_id}/retry"`);
      expect((await readSession(session.session_id)).status).to.equal('pending');

      // Retry from the same browser starts a new attempt that can complete.
      const retried = await browser.go(`${GATEWAY_URL}/v1/hosted/connect/sessions/${session.session_id}/retry`, { form: {} });
      expect(retried.status).to.equal(303);
      expect(new URL(retried.location!).searchParams.get('state')).to.not.equal(new URL(authorizeUrl).searchParams.get('state'));
      const second = await authorizeAtProvider(browser, GATEWAY_URL, retried.location!, { login: 'ada-account' });
      expect((await browser.go(second)).status).to.equal(303);
      // The retry form is refused without the session's browser cookie, and from another site.
      const stranger = await newBrowser().go(`${GATEWAY_URL}/v1/hosted/connect/sessions/${session.session_id}/retry`, { form: {} });
      expect(stranger.status).to.equal(404);
    });

    it('refuses a Continue posted from another website', async () => {
      const session = await createSession();
      const res = await newBrowser().go(session.url, { form: {}, headers: { origin: 'https://evil.example' } });
      expect(res.status).to.equal(403);
      expect(res.headers['content-type']).to.match(/^text\/html/);
      expect(res.body).to.include('sent from another website');
      const own = await newBrowser().go(session.url, { form: {}, headers: { origin: GATEWAY_URL } });
      expect(own.status).to.equal(303);
    });

    it('expires an unused link: hosted expired page, status expired, and the callback refused', async () => {
      const session = await createSession();
      const browser = newBrowser();
      const authorizeUrl = await continueFrom(browser, session.url);
      const callbackUrl = await authorizeAtProvider(browser, GATEWAY_URL, authorizeUrl, { login: 'ada-account' });
      // A second past the link's lifetime, as the gateway sees it:
      await later(h.gateway.config.connect.session_ttl_s * 1000 + 1000, async () => {
        for (const res of [await browser.go(session.url), await browser.go(callbackUrl)]) {
          expect(res.status).to.equal(404);
          expect(res.body).to.include('This link has expired');
        }
        expect((await readSession(session.session_id)).status).to.equal('expired');
        const listed = await h.request({ method: 'GET', url: '/v1/connect/sessions?status=expired' });
        expect(listed.json.sessions.map((s: { id: string }) => s.id)).to.include(session.session_id);
      });
    });

    it('stops the links of a suspended organization at every step', async () => {
      const session = await createSession();
      const browser = newBrowser();
      await browser.go(session.url);
      await setOrganizationStatus(h.gateway, 'default', 'suspended');
      try {
        for (const res of [await browser.go(session.url), await browser.go(session.url, { form: {} })]) {
          expect(res.status).to.equal(404);
          expect(res.body).to.include('not available for this app right now');
        }
      } finally {
        await setOrganizationStatus(h.gateway, 'default', 'active');
      }
    });

    it('never writes a link secret into the request log', async () => {
      const session = await createSession();
      const secret = session.url.split('/').pop()!;
      const original = h.gateway.log;
      const lines: string[] = [];
      h.gateway.log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      try {
        const browser = newBrowser();
        await browser.go(session.url);
        await browser.go(session.url, { form: {} });
      } finally {
        h.gateway.log = original;
      }
      expect(lines.join('\n')).to.include('/v1/hosted/connect/{secret}');
      expect(lines.join('\n')).to.not.include(secret);
    });

    it('answers unknown links and hosted routes with HTML pages', async () => {
      const browser = newBrowser();
      for (const path of ['/v1/hosted/connect/cs_unknown', '/v1/hosted/connect/not-a-link', '/v1/hosted/nowhere', '/v1/hosted/connect/callback?state=nope']) {
        const res = await browser.go(`${GATEWAY_URL}${path}`);
        expect(res.status).to.equal(404);
        expect(res.headers['content-type']).to.match(/^text\/html/);
        expect(res.body).to.match(/<h1>/);
      }
    });

    it('refreshes an access token about to expire against the real server and stores the new one encrypted', async () => {
      const { session } = await consent({ principal: 'user:refresh' }, 'refresh-account');
      const { connection_id: id } = await readSession(session.session_id);
      const row = (await findConnectionById(h.gateway.db, id))!;
      const before = openCredential(h.gateway.keyring, row.credential);
      if (before.type !== 'oauth2') throw new Error('expected OAuth tokens');
      expect(before.refresh_token).to.be.a('string');
      // Thirty seconds before the access token expires:
      const aboutToExpire = before.expires_at! - 30_000;
      const requestsBefore = oauth.requests.filter((r) => r.path === '/token').length;
      const token = await ensureFreshCredential(h.gateway, row, aboutToExpire);
      expect(token).to.not.equal(before.access_token);
      expect(oauth.requests.filter((r) => r.path === '/token').length).to.equal(requestsBefore + 1);
      const userinfo = await fetch(`${oauth.issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(userinfo.status).to.equal(200);
      const stored = (await findConnectionById(h.gateway.db, id))!;
      expect(stored.credential).to.not.include(token);
      expect(Number(stored.credential_expires_at)).to.be.greaterThan(Date.now() + 60_000);
      // Fresh now: no further refresh.
      expect(await ensureFreshCredential(h.gateway, stored)).to.equal(token);
      expect(oauth.requests.filter((r) => r.path === '/token').length).to.equal(requestsBefore + 1);
    });

    /** An access token thirty seconds from expiry renewed by a gateway with these settings changed; the error it throws. */
    async function refreshFailure(principal: string, settings: { upstream: object }) {
      const { session } = await consent({ principal }, `${principal.slice(5)}-account`);
      const row = (await findConnectionById(h.gateway.db, (await readSession(session.session_id)).connection_id))!;
      const credential = openCredential(h.gateway.keyring, row.credential);
      if (credential.type !== 'oauth2') throw new Error('expected OAuth tokens');
      const { config } = h.gateway;
      const gateway = {
        ...h.gateway,
        config: { ...config, upstream: { ...config.upstream, ...settings.upstream } },
      };
      const tokenRequests = oauth.requests.filter((r) => r.path === '/token').length;
      let error: unknown;
      try {
        await ensureFreshCredential(gateway, row, credential.expires_at! - 30_000);
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(GatewayError);
      expect((error as GatewayError).code).to.equal('upstream_error');
      expect((await findConnectionById(h.gateway.db, row.id))!.status).to.equal('active');
      return { sent: oauth.requests.filter((r) => r.path === '/token').length - tokenRequests };
    }

    it('fails a refresh whose token answer is over upstream.max_response_bytes as unreachable, keeping the connection', async () => {
      // The server's token answer (access, refresh and ID token) is well over 100 bytes.
      const { sent } = await refreshFailure('user:oversized', { upstream: { max_response_bytes: 100 } });
      expect(sent).to.equal(1);
    });

    it('marks a connection needs_reauth when the provider refuses the refresh, with a reconnect link', async () => {
      const { session } = await consent({ principal: 'user:refused' }, 'refused-account');
      const { connection_id: id } = await readSession(session.session_id);
      const row = (await findConnectionById(h.gateway.db, id))!;
      const credential = openCredential(h.gateway.keyring, row.credential);
      if (credential.type !== 'oauth2') throw new Error('expected OAuth tokens');
      // The provider forgets the grant: its refresh token is revoked at the server.
      const revoked = await fetch(`${oauth.issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${oauth.clients.basic.client_id}:${oauth.clients.basic.client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token: credential.refresh_token!, token_type_hint: 'refresh_token' }),
      });
      expect(revoked.status).to.equal(200);
      let error: unknown;
      try {
        // A second after the access token expired:
        await ensureFreshCredential(h.gateway, row, credential.expires_at! + 1000);
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(GatewayError);
      const gatewayError = error as GatewayError;
      expect(gatewayError.code).to.equal('connection_invalid');
      expect(gatewayError.extras.reconnect_url).to.match(/^http:\/\/gateway\.test\/v1\/hosted\/connect\/cs_/);
      expect((await findConnectionById(h.gateway.db, id))!.status).to.equal('needs_reauth');
      const events = await h.gateway.db.select<{ type: string }>("SELECT type FROM webhook_events WHERE type = 'connection.needs_reauth'");
      expect(events.length).to.be.greaterThan(0);

      // The reconnect link restores the same connection for the same account.
      const browser = newBrowser();
      const authorizeUrl = await continueFrom(browser, gatewayError.extras.reconnect_url as string);
      const done = await browser.go(await authorizeAtProvider(browser, GATEWAY_URL, authorizeUrl, { login: 'refused-account' }));
      expect(done.status).to.equal(200);
      expect((await findConnectionById(h.gateway.db, id))!.status).to.equal('active');
    });

    it('revokes tokens at the provider with RFC 7009', async () => {
      const { session } = await consent({ principal: 'user:revoke' }, 'revoke-account');
      const { connection_id: id } = await readSession(session.session_id);
      const row = (await findConnectionById(h.gateway.db, id))!;
      const credential = openCredential(h.gateway.keyring, row.credential);
      if (credential.type !== 'oauth2') throw new Error('expected OAuth tokens');
      expect((await fetch(`${oauth.issuer}/me`, { headers: { authorization: `Bearer ${credential.access_token}` } })).status).to.equal(200);
      const revocations = oauth.requests.filter((r) => r.path === '/token/revocation').length;
      await revokeAtProvider(h.gateway, row);
      expect(oauth.requests.filter((r) => r.path === '/token/revocation').length).to.equal(revocations + 2);
      expect((await fetch(`${oauth.issuer}/me`, { headers: { authorization: `Bearer ${credential.access_token}` } })).status).to.equal(401);
    });

    it('keeps provider-side revocation best effort when the provider is unreachable, logging without tokens', async () => {
      const { session } = await consent({ principal: 'user:unreachable' }, 'unreachable-account');
      const { connection_id: id } = await readSession(session.session_id);
      const row = (await findConnectionById(h.gateway.db, id))!;
      const credential = openCredential(h.gateway.keyring, row.credential);
      if (credential.type !== 'oauth2') throw new Error('expected OAuth tokens');
      const auth = h.gateway.catalog.providers.get('oidc-test')!.auth as { revoke_url: string };
      const original = { url: auth.revoke_url, log: h.gateway.log };
      const lines: string[] = [];
      auth.revoke_url = 'http://127.0.0.1:1/revoke';
      h.gateway.log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
      try {
        await revokeAtProvider(h.gateway, row);
      } finally {
        auth.revoke_url = original.url;
        h.gateway.log = original.log;
      }
      expect(lines.length).to.equal(2);
      expect(lines[0]).to.include('provider-side revocation failed');
      for (const line of lines) {
        expect(line).to.not.include(credential.access_token);
        expect(line).to.not.include(credential.refresh_token!);
      }
    });
  });
}
