import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import type { Harness } from '../support/harness.js';
import { APP_CALLBACK, startConnectHarness, type TestBrowser } from '../support/oauth-server.js';
import { createOrganization, renameOrganization } from '../../src/domain/organizations.js';
import { GatewayError } from '../../src/domain/errors.js';

/** The organization's display name: what GET /v1/me and every hosted page call it, in place of its slug. */
for (const dialect of dialects) {
  describe(`organization display name [${dialect}]`, function () {
    this.timeout(30000);
    let h: Harness;
    let newBrowser: () => TestBrowser;
    let close: () => Promise<void>;

    before(async function () {
      this.timeout(60000);
      ({ h, browser: newBrowser, close } = await startConnectHarness(dialect));
    });
    after(async () => close?.());

    it('is the name until one is given, and GET /v1/me carries it', async () => {
      const me = await h.request({ method: 'GET', url: '/v1/me' });
      expect(me.json.organization).to.deep.equal({ id: h.organizationId, name: 'default', display_name: 'default' });
      const other = await createOrganization(h.gateway, 'acme-eu', 'Acme Europe');
      expect(other).to.include({ name: 'acme-eu', display_name: 'Acme Europe' });
    });

    it('refuses an empty, over-long or multi-line display name', async () => {
      for (const bad of ['', '   ', 'x'.repeat(101), 'Acme\nInc', 'Acme\u0000']) {
        try {
          await renameOrganization(h.gateway, 'default', bad);
          expect.fail(`accepted ${JSON.stringify(bad)}`);
        } catch (err) {
          expect(err).to.be.instanceOf(GatewayError);
          expect((err as GatewayError).code).to.equal('invalid_input');
        }
      }
    });

    it('is what the consent page and the connections page show, escaped, instead of the slug', async () => {
      const renamed = await renameOrganization(h.gateway, 'default', 'Acme & <Co>');
      expect(renamed.display_name).to.equal('Acme & <Co>');
      const me = await h.request({ method: 'GET', url: '/v1/me' });
      expect(me.json.organization.display_name).to.equal('Acme & <Co>');

      const session = await h.request({ method: 'POST', url: '/v1/connect/sessions', payload: { provider: 'oidc-test', principal: 'user:ada', redirect_uri: APP_CALLBACK } });
      const consent = await newBrowser().go(session.json.url);
      expect(consent.body).to.include('<strong>Acme &amp; &lt;Co&gt;</strong> is asking for access');
      expect(consent.body).to.not.match(/\bdefault\b.*is asking/);

      const link = await h.request({ method: 'POST', url: '/v1/connect/connections-pages', payload: { principal: 'user:ada' } });
      const page = await newBrowser().go(link.json.url);
      expect(page.status).to.equal(200);
      expect(page.body).to.include('Acme &amp; &lt;Co&gt;');
      expect(page.body).to.not.match(/>default</);
    });
  });
}
