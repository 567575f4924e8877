import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createApiKey } from '../../src/domain/api-keys.js';
import { GatewayError } from '../../src/domain/errors.js';
import { resolveOAuthClient } from '../../src/domain/oauth-apps.js';
import { createOrganization } from '../../src/domain/organizations.js';
import { eachDialect, problem } from '../support/harness.js';
import { storedRows } from '../support/storage.js';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

const MANAGED_ID_ENV = 'OAUTH_APPS_TEST_MANAGED_CLIENT_ID';
const MANAGED_SECRET_ENV = 'OAUTH_APPS_TEST_MANAGED_CLIENT_SECRET';

/** Providers of every auth kind; `managed-oauth` names environment variables for the operator's app. */
const catalogFile = path.join(mkdtempSync(path.join(tmpdir(), 'gw-oauth-apps-')), 'catalog.yaml');
writeFileSync(
  catalogFile,
  `providers:
  - slug: own-oauth
    name: Own OAuth
    base_url: https://api.own.example
    auth: {type: oauth2, authorize_url: "https://own.example/authorize", token_url: "https://own.example/token", scopes: [profile]}
  - slug: managed-oauth
    name: Managed OAuth
    base_url: https://api.managed.example
    auth: {type: oauth2, authorize_url: "https://managed.example/authorize", token_url: "https://managed.example/token", scopes: [profile]}
    managed_oauth_app: {client_id_env: ${MANAGED_ID_ENV}, client_secret_env: ${MANAGED_SECRET_ENV}}
  - slug: keyed
    name: Keyed
    base_url: https://api.keyed.example
    auth: {type: api_key, header: X-Api-Key}
`,
);

const SECRET = 'client-secret-that-must-never-come-back-0123456789';

eachDialect(
  'OAuth apps',
  (h) => {
    const url = (slug: string) => `/v1/providers/${slug}/oauth-app`;
    const put = (slug: string, payload: object, headers?: Record<string, string>) => h().request({ method: 'PUT', url: url(slug), payload, headers });

    afterEach(() => {
      delete process.env[MANAGED_ID_ENV];
      delete process.env[MANAGED_SECRET_ENV];
    });

    it('answers 404 provider_not_found for an unknown provider and oauth_app_not_found before one is set', async () => {
      problem(await h().request({ method: 'GET', url: url('nope') }), 404, 'provider_not_found');
      problem(await h().request({ method: 'DELETE', url: url('nope') }), 404, 'provider_not_found');
      problem(await put('nope', { client_id: 'a', client_secret: 'b' }), 404, 'provider_not_found');
      problem(await h().request({ method: 'GET', url: url('own-oauth') }), 404, 'oauth_app_not_found');
      problem(await h().request({ method: 'DELETE', url: url('own-oauth') }), 404, 'oauth_app_not_found');
    });

    it('sets an app: 200 with exactly {provider, client_id, scopes, created_at, updated_at, redirect_uri}, never the secret', async () => {
      const before = Date.now();
      const res = await put('own-oauth', { client_id: 'client-123', client_secret: SECRET, scopes: ['profile', 'contacts.read', 'profile'] });
      expect(res.statusCode).to.equal(200);
      expect(res.json).to.have.all.keys('provider', 'client_id', 'scopes', 'created_at', 'updated_at', 'redirect_uri');
      expect(res.json).to.include({ provider: 'own-oauth', client_id: 'client-123', redirect_uri: 'http://gateway.test/v1/hosted/connect/callback' });
      expect(res.json.scopes).to.deep.equal(['profile', 'contacts.read']);
      expect(Date.parse(res.json.created_at)).to.be.within(before, Date.now());
      expect(res.json.updated_at).to.equal(res.json.created_at);
      expect(res.payload).to.not.include(SECRET);

      const read = await h().request({ method: 'GET', url: url('own-oauth') });
      expect(read.statusCode).to.equal(200);
      expect(read.json).to.deep.equal(res.json);
      expect(read.payload).to.not.include(SECRET);
    });

    it('stores the client secret encrypted, readable only through the keyring', async () => {
      await put('own-oauth', { client_id: 'client-123', client_secret: SECRET });
      const rows = await storedRows<{ client_secret: string }>(h().gateway.db, 'oauth_apps', { provider: 'own-oauth' });
      expect(rows).to.have.length(1);
      expect(JSON.stringify(rows)).to.not.include(SECRET);
      expect(JSON.stringify(rows)).to.not.include(Buffer.from(SECRET).toString('base64'));
      expect(rows[0].client_secret).to.match(/^k1\./);
      expect(h().gateway.keyring.decrypt(rows[0].client_secret)).to.equal(SECRET);
    });

    it('replaces an app on a second PUT, keeping created_at; scopes default to none (the provider defaults apply)', async () => {
      const first = (await put('own-oauth', { client_id: 'first', client_secret: 'one', scopes: ['profile'] })).json;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await put('own-oauth', { client_id: 'second', client_secret: 'two' });
      expect(second.statusCode).to.equal(200);
      expect(second.json.client_id).to.equal('second');
      expect(second.json.scopes).to.deep.equal([]);
      expect(second.json.created_at).to.equal(first.created_at);
      expect(Date.parse(second.json.updated_at)).to.be.above(Date.parse(first.created_at));
      const client = await resolveOAuthClient(h().gateway, h().organizationId, 'own-oauth');
      expect(client).to.deep.equal({ client_id: 'second', client_secret: 'two', scopes: [], managed: false });
    });

    it('refuses a provider that does not use OAuth2 with 400 invalid_input', async () => {
      const keyed = problem(await put('keyed', { client_id: 'a', client_secret: 'b' }), 400, 'invalid_input');
      expect(keyed.detail).to.match(/does not use OAuth2/);
      problem(await put('open-meteo', { client_id: 'a', client_secret: 'b' }), 400, 'invalid_input');
      problem(await h().request({ method: 'GET', url: url('keyed') }), 404, 'oauth_app_not_found');
    });

    it('answers malformed bodies with 400 invalid_input naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ client_secret: 'b' }, 'payload.client_id'],
        [{ client_id: 'a' }, 'payload.client_secret'],
        [{ client_id: '', client_secret: 'b' }, 'payload.client_id'],
        [{ client_id: 'x'.repeat(501), client_secret: 'b' }, 'payload.client_id'],
        [{ client_id: 'a', client_secret: 'b\u0000' }, 'payload.client_secret'],
        [{ client_id: 'a', client_secret: 'b', scopes: ['two words'] }, 'payload.scopes.0'],
        [{ client_id: 'a', client_secret: 'b', scopes: 'profile' }, 'payload.scopes'],
        [{ client_id: 'a', client_secret: 'b', redirect_uri: 'https://x' }, 'payload.redirect_uri'],
      ];
      for (const [payload, name] of cases) {
        const body = problem(await put('own-oauth', payload as object), 400, 'invalid_input');
        expect(body.invalid_params.map((p: { name: string }) => p.name), JSON.stringify(payload)).to.include(name);
      }
      problem(await h().request({ method: 'PUT', url: url('own-oauth') }), 400, 'invalid_input');
      problem(await h().request({ method: 'GET', url: url('x'.repeat(101)) }), 400, 'invalid_input');
    });

    it('deletes with 204 and an empty body; the app is gone afterwards', async () => {
      await put('own-oauth', { client_id: 'a', client_secret: 'b' });
      const res = await h().request({ method: 'DELETE', url: url('own-oauth') });
      expect(res.statusCode).to.equal(204);
      expect(res.payload).to.equal('');
      problem(await h().request({ method: 'GET', url: url('own-oauth') }), 404, 'oauth_app_not_found');
      problem(await h().request({ method: 'DELETE', url: url('own-oauth') }), 404, 'oauth_app_not_found');
      const rows = await h().gateway.db.select('SELECT * FROM oauth_apps WHERE organization_id = $1', [h().organizationId]);
      expect(rows).to.deep.equal([]);
    });

    it('keeps each organization\'s app to itself', async () => {
      await put('own-oauth', { client_id: 'mine', client_secret: 'b' });
      const other = await createOrganization(h().gateway, `apps-${h().dialect}`);
      const key = (await createApiKey(h().gateway, other.id, 'owner')).key;
      problem(await h().request({ method: 'GET', url: url('own-oauth'), headers: bearer(key) }), 404, 'oauth_app_not_found');
      problem(await h().request({ method: 'DELETE', url: url('own-oauth'), headers: bearer(key) }), 404, 'oauth_app_not_found');
      expect((await h().request({ method: 'GET', url: url('own-oauth') })).json.client_id).to.equal('mine');
    });

    it('lets any key read; only admin and owner keys change; principal-bound tokens get 403 role_forbidden', async () => {
      await put('own-oauth', { client_id: 'a', client_secret: 'b' });
      const member = bearer(await h().keyWithRole('member'));
      const admin = bearer(await h().keyWithRole('admin'));
      expect((await h().request({ method: 'GET', url: url('own-oauth'), headers: member })).statusCode).to.equal(200);
      problem(await put('own-oauth', { client_id: 'm', client_secret: 'm' }, member), 403, 'role_forbidden');
      problem(await h().request({ method: 'DELETE', url: url('own-oauth'), headers: member }), 403, 'role_forbidden');
      expect((await put('own-oauth', { client_id: 'adm', client_secret: 'adm' }, admin)).statusCode).to.equal(200);
      const token = bearer((await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } })).json.token);
      problem(await h().request({ method: 'GET', url: url('own-oauth'), headers: token }), 403, 'role_forbidden');
      problem(await put('own-oauth', { client_id: 't', client_secret: 't' }, token), 403, 'role_forbidden');
      problem(await h().request({ method: 'DELETE', url: url('own-oauth'), headers: token }), 403, 'role_forbidden');
      expect((await h().request({ method: 'DELETE', url: url('own-oauth'), headers: admin })).statusCode).to.equal(204);
    });

    it('resolves the OAuth client: own app, else the managed app from its environment variables, else 409 oauth_app_required', async () => {
      const resolve = (slug: string) => resolveOAuthClient(h().gateway, h().organizationId, slug);
      const failure = (slug: string) => resolve(slug).then(() => null, (err: unknown) => err as GatewayError);

      const missing = await failure('managed-oauth');
      expect(missing).to.be.instanceOf(GatewayError);
      expect([missing!.code, missing!.status]).to.deep.equal(['oauth_app_required', 409]);
      expect((await failure('own-oauth'))!.code).to.equal('oauth_app_required');
      expect((await failure('nope'))!.code).to.equal('provider_not_found');

      process.env[MANAGED_ID_ENV] = 'managed-id';
      expect((await failure('managed-oauth'))!.code, 'one of the two variables is not enough').to.equal('oauth_app_required');
      process.env[MANAGED_SECRET_ENV] = 'managed-secret';
      expect(await resolve('managed-oauth')).to.deep.equal({ client_id: 'managed-id', client_secret: 'managed-secret', scopes: [], managed: true });
      expect((await failure('own-oauth'))!.code, 'a managed app serves only its own provider').to.equal('oauth_app_required');

      await put('managed-oauth', { client_id: 'own-id', client_secret: 'own-secret', scopes: ['contacts.read'] });
      expect(await resolve('managed-oauth')).to.deep.equal({ client_id: 'own-id', client_secret: 'own-secret', scopes: ['contacts.read'], managed: false });
      await h().request({ method: 'DELETE', url: url('managed-oauth') });
      expect((await resolve('managed-oauth')).managed).to.equal(true);
    });
  },
  { config: { catalog: { files: [catalogFile] } } },
);
