import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import type { Harness } from '../support/harness.js';
import { APP_CALLBACK, authorizeAtProvider, GATEWAY_URL, startConnectHarness, type OAuthServer, type TestBrowser } from '../support/oauth-server.js';
import { saveConsentedConnection } from '../../src/domain/connections/connections.js';

/** The signed connections page: only one principal's connections, revocable with CSRF-safe forms. */
for (const dialect of dialects) {
  describe(`hosted connections page [${dialect}]`, function () {
    this.timeout(30000);
    let h: Harness;
    let oauth: OAuthServer;
    let newBrowser: () => TestBrowser;
    let close: () => Promise<void>;
    let adaConnection: string;
    let otherConnection: string;

    before(async function () {
      this.timeout(60000);
      ({ h, oauth, browser: newBrowser, close } = await startConnectHarness(dialect));
      // Ada's connection comes from a real consent, so revoking it reaches the provider.
      const session = await h.request({ method: 'POST', url: '/v1/connect/sessions', payload: { provider: 'oidc-test', principal: 'user:ada', redirect_uri: APP_CALLBACK } });
      const browser = newBrowser();
      await browser.go(session.json.url);
      const authorizeUrl = (await browser.go(session.json.url, { form: {} })).location!;
      await browser.go(await authorizeAtProvider(browser, GATEWAY_URL, authorizeUrl, { login: 'ada-account' }));
      adaConnection = (await h.request({ method: 'GET', url: `/v1/connect/sessions/${session.json.session_id}` })).json.connection_id;
      const other = await saveConsentedConnection(h.gateway, {
        organizationId: h.organizationId,
        principal: 'user:bob',
        provider: 'oidc-test',
        accountId: 'bob-account',
        label: 'Bob <script>alert(1)</script>',
        credential: { type: 'oauth2', access_token: 'bob-access-token' },
        scopes: ['openid'],
      });
      otherConnection = other.id;
    });
    after(async () => close?.());

    async function pageUrl(principal: string) {
      const res = await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal } });
      expect(res.statusCode).to.equal(201);
      return res.json.url as string;
    }

    function formOf(body: string, connectionId: string) {
      const form = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="csrf" value="([^"]+)">\\s*<input type="hidden" name="connection_id" value="${connectionId}">`).exec(body);
      if (!form) throw new Error(`no revoke form for ${connectionId}`);
      return { action: `${GATEWAY_URL}${form[1]}`, csrf: form[2] };
    }

    it("lists only that principal's connections, escaped, with a revoke form each", async () => {
      const browser = newBrowser();
      const page = await browser.go(await pageUrl('user:ada'));
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
      expect(page.headers['content-security-policy']).to.include("default-src 'none'");
      expect(page.body).to.include('Your connected accounts');
      expect(page.body).to.include('Example Accounts');
      expect(page.body).to.include('Account ada-account');
      expect(page.body).to.include('openid, profile');
      expect(page.body).to.not.include('bob-account');
      expect(page.body).to.not.include(otherConnection);
      formOf(page.body, adaConnection);
      expect(String(page.headers['set-cookie'])).to.match(/^gw_page=[A-Za-z0-9_-]{43};.*HttpOnly.*SameSite=Lax/);

      const bob = await newBrowser().go(await pageUrl('user:bob'));
      expect(bob.body).to.include('Bob &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(bob.body).to.not.include('<script>');
      expect(bob.body).to.not.include('Account ada-account');
    });

    it('refuses a tampered, truncated or expired link with a hosted page', async () => {
      const url = await pageUrl('user:ada');
      const [payload, signature] = url.split('/').pop()!.split('.');
      const forged = Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('user:ada', 'user:bob')).toString('base64url');
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      for (const token of [`${forged}.${signature}`, `${payload}.${flipped}`, payload, `${payload}.${signature}.x`, 'garbage']) {
        const res = await newBrowser().go(`${GATEWAY_URL}/v1/hosted/connections/${token}`);
        expect(res.status, token).to.equal(401);
        expect(res.headers['content-type']).to.match(/^text\/html/);
        expect(res.body).to.include('This page link is not valid');
      }
      h.gateway.config.connections_page.ttl_s = -1;
      try {
        const expired = await newBrowser().go(await pageUrl('user:ada'));
        expect(expired.status).to.equal(401);
        expect(expired.body).to.include('has expired');
      } finally {
        h.gateway.config.connections_page.ttl_s = 3600;
      }
    });

    it('refuses a revoke without the form token, with a forged one, without the cookie, or from another site', async () => {
      const browser = newBrowser();
      const url = await pageUrl('user:ada');
      const { action, csrf } = formOf((await browser.go(url)).body, adaConnection);
      const attempts: Array<[TestBrowser, Record<string, string>, Record<string, string>]> = [
        [browser, { connection_id: adaConnection }, {}],
        [browser, { connection_id: adaConnection, csrf: `${csrf.slice(0, -2)}xx` }, {}],
        [newBrowser(), { connection_id: adaConnection, csrf }, {}],
        [browser, { connection_id: adaConnection, csrf }, { origin: 'https://evil.example' }],
      ];
      for (const [who, form, headers] of attempts) {
        const res = await who.go(action, { form, headers });
        expect(res.status, JSON.stringify(form)).to.equal(403);
        expect(res.headers['content-type']).to.match(/^text\/html/);
      }
      const connection = await h.request({ method: 'GET', url: `/v1/connections/${adaConnection}` });
      expect(connection.json.status).to.equal('active');
    });

    it("refuses to revoke another principal's connection from this page", async () => {
      const browser = newBrowser();
      const url = await pageUrl('user:ada');
      const { action, csrf } = formOf((await browser.go(url)).body, adaConnection);
      const res = await browser.go(action, { form: { connection_id: otherConnection, csrf } });
      expect(res.status).to.equal(404);
      expect(res.body).to.include('Connection not found');
      expect((await h.request({ method: 'GET', url: `/v1/connections/${otherConnection}` })).json.status).to.equal('active');
    });

    it('revokes through the form: the connection is revoked, the event recorded, the provider told, and the page confirms', async () => {
      const browser = newBrowser();
      const url = await pageUrl('user:ada');
      const { action, csrf } = formOf((await browser.go(url)).body, adaConnection);
      const revocations = oauth.requests.filter((r) => r.path === '/token/revocation').length;
      const res = await browser.go(action, { form: { connection_id: adaConnection, csrf }, headers: { origin: GATEWAY_URL } });
      expect(res.status).to.equal(303);
      expect(res.location).to.equal(`${url.slice(GATEWAY_URL.length)}?revoked=${adaConnection}`);
      const after = await browser.go(`${GATEWAY_URL}${res.location}`);
      expect(after.status).to.equal(200);
      expect(after.body).to.include('Revoked Example Accounts account Account ada-account');
      expect(after.body).to.include('badge revoked');
      expect(() => formOf(after.body, adaConnection)).to.throw();

      expect((await h.request({ method: 'GET', url: `/v1/connections/${adaConnection}` })).json.status).to.equal('revoked');
      const events = await h.gateway.db.select<{ type: string }>("SELECT type FROM webhook_events WHERE type = 'connection.revoked'");
      expect(events.length).to.equal(1);
      expect(oauth.requests.filter((r) => r.path === '/token/revocation').length).to.be.greaterThan(revocations);
    });
  });
}
