import path from 'node:path';
import { expect } from 'chai';
import { eachDialect, problem, type Harness } from '../support/harness.js';

const fixture = path.resolve('test/fixtures/catalog/extra.yaml');
const PLATFORM_SECRET = 'acme-platform-secret-for-http-tests';
process.env.CATALOG_TEST_ACME_KEY = PLATFORM_SECRET;

const summaryKeys = ['id', 'provider', 'capability', 'kind', 'title', 'description', 'price_usd', 'status'];
const providerKeys = ['slug', 'name', 'description', 'auth', 'scopes', 'zero_retention', 'platform_credential', 'task_count'];

async function tokenFor(h: Harness, principal: string): Promise<string> {
  const res = await h.request({ method: 'POST', url: '/v1/tokens', payload: { principal } });
  expect(res.statusCode, res.payload).to.equal(201);
  return res.json.token;
}

eachDialect(
  'catalog endpoints',
  (h) => {
    const get = (url: string, headers: Record<string, string | null> = {}) => h().request({ method: 'GET', url, headers });

    describe('GET /v1/tasks', () => {
      it('pages every task 50 at a time in id order with next_cursor', async () => {
        const first = await get('/v1/tasks');
        expect(first.statusCode).to.equal(200);
        expect(first.json).to.have.all.keys('tasks', 'next_cursor');
        expect(first.json.tasks).to.have.length(50);
        expect(first.json.tasks[0]).to.have.all.keys(...summaryKeys);
        const seen: string[] = first.json.tasks.map((t: { id: string }) => t.id);
        let cursor = first.json.next_cursor;
        while (cursor) {
          const page = await get(`/v1/tasks?cursor=${encodeURIComponent(cursor)}`);
          expect(page.statusCode).to.equal(200);
          seen.push(...page.json.tasks.map((t: { id: string }) => t.id));
          cursor = page.json.next_cursor;
        }
        expect(seen).to.deep.equal([...h().gateway.catalog.tasks.keys()].sort());
      });

      it('filters by provider, capability, kind and q, case-insensitively across the searchable fields', async () => {
        const ids = async (query: string) => (await get(`/v1/tasks?${query}`)).json.tasks.map((t: { id: string }) => t.id);
        expect(await ids('provider=open-meteo')).to.deep.equal(['open-meteo.weather.current', 'open-meteo.weather.forecast']);
        expect(await ids('capability=email.send')).to.have.members(['google.gmail.send', 'resend.email.send', 'sendgrid.email.send']);
        const utilities = (await get('/v1/tasks?kind=utility')).json.tasks;
        expect(utilities.length).to.be.greaterThan(5);
        expect(utilities.every((t: { kind: string }) => t.kind === 'utility')).to.equal(true);
        expect(await ids('q=FORECAST&kind=data&provider=openweathermap')).to.deep.equal(['openweathermap.weather.forecast']);
        expect(await ids('q=weather&kind=action')).to.deep.equal([]);
        expect(await ids('q=pikachu')).to.deep.equal(['pokeapi.pokemon.get']);
        expect(await ids(`q=${encodeURIComponent('slack emoji')}`)).to.deep.equal(['slack.reactions.add']);
        expect(await ids('q=geocode.search')).to.have.members(['open-meteo-geocoding.geocode.search', 'openweathermap.geocode.search']);
        const none = await get('/v1/tasks?q=zzzz-no-such-word');
        expect(none.json).to.deep.equal({ tasks: [], next_cursor: null });
      });

      it('lists retired and broken tasks with their status', async () => {
        const tasks = (await get('/v1/tasks?provider=acme')).json.tasks;
        expect(tasks.map((t: { id: string; status: string }) => [t.id, t.status])).to.deep.equal([
          ['acme.weather.current', 'active'],
          ['acme.weather.flaky', 'broken'],
          ['acme.weather.legacy', 'retired'],
        ]);
      });

      it('refuses bad filters, cursors and principals with 400 invalid_input naming them', async () => {
        const kind = problem(await get('/v1/tasks?kind=weather'), 400, 'invalid_input');
        expect(kind.invalid_params[0].name).to.equal('query.kind');
        problem(await get(`/v1/tasks?q=${'a'.repeat(201)}`), 400, 'invalid_input');
        problem(await get(`/v1/tasks?provider=${'a'.repeat(101)}`), 400, 'invalid_input');
        problem(await get('/v1/tasks?cursor=bm9wZQ'), 400, 'invalid_input');
        problem(await get('/v1/tasks?sort=id'), 400, 'invalid_input');
        const principal = problem(await get('/v1/tasks', { 'svc-principal': 'someone' }), 400, 'invalid_input');
        expect(principal.invalid_params[0].name).to.equal('headers.svc-principal');
      });
    });

    describe('GET /v1/tasks/{id}', () => {
      it('shows what a caller needs to run the task: price, input and output schemas, what it does, scopes and credential kind', async () => {
        const res = await get('/v1/tasks/acme.weather.current', { 'svc-principal': 'user:ada' });
        expect(res.statusCode).to.equal(200);
        expect(res.json).to.deep.equal({
          id: 'acme.weather.current',
          provider: 'acme',
          capability: 'weather.current',
          kind: 'data',
          title: 'Current weather (Acme)',
          description: 'Current temperature at a latitude and longitude.',
          price_usd: 0.002,
          status: 'active',
          keywords: ['weather'],
          scopes: [],
          input: {
            type: 'object',
            properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
            required: ['latitude', 'longitude'],
          },
          output: { type: 'object', properties: { temperature: { type: 'number', description: 'degrees Celsius' } } },
          annotations: { read_only: true, destructive: false, idempotent: true },
          auth: 'api_key',
          platform_credential: true,
          zero_retention: true,
        });
        const account = (await get('/v1/tasks/github.issues.create')).json;
        expect(account).to.include({ kind: 'account', auth: 'oauth2', platform_credential: false });
        expect(account.scopes).to.deep.equal(['repo']);
        expect(account.output, 'a task whose catalog entry says nothing of its answer').to.equal(null);
        expect(account.annotations, 'an account task that POSTs: it adds').to.deep.equal({ read_only: false, destructive: false, idempotent: false });
        const overridden = (await get('/v1/tasks/stripe.customers.create')).json;
        expect(overridden.annotations, 'an action the catalog says only adds').to.deep.equal({ read_only: false, destructive: false, idempotent: false });
        expect(res.payload).to.not.include(PLATFORM_SECRET);
      });

      it('answers 404 task_not_found and 410 task_retired / task_broken', async () => {
        problem(await get('/v1/tasks/acme.nothing'), 404, 'task_not_found');
        problem(await get('/v1/tasks/acme.weather.legacy'), 410, 'task_retired');
        problem(await get('/v1/tasks/acme.weather.flaky'), 410, 'task_broken');
        problem(await get(`/v1/tasks/${'a'.repeat(101)}`), 400, 'invalid_input');
      });
    });

    describe('GET /v1/capabilities/{id}', () => {
      it('lists the routes of a capability as task summaries', async () => {
        const res = await get('/v1/capabilities/weather.current');
        expect(res.statusCode).to.equal(200);
        expect(res.json).to.have.all.keys('id', 'tasks');
        expect(res.json.id).to.equal('weather.current');
        expect(res.json.tasks.map((t: { provider: string }) => t.provider)).to.deep.equal(['open-meteo', 'openweathermap', 'acme']);
        expect(res.json.tasks[0]).to.have.all.keys(...summaryKeys);
      });

      it('answers 404 capability_not_found', async () => {
        problem(await get('/v1/capabilities/weather.yesterday'), 404, 'capability_not_found');
      });
    });

    describe('GET /v1/providers', () => {
      it('summarises every provider without any secret', async () => {
        const res = await get('/v1/providers');
        expect(res.statusCode).to.equal(200);
        expect(res.json).to.have.all.keys('providers');
        const bySlug = Object.fromEntries(res.json.providers.map((p: { slug: string }) => [p.slug, p]));
        expect(Object.keys(bySlug).length).to.equal(h().gateway.catalog.providers.size);
        for (const p of res.json.providers) expect(p).to.have.all.keys(...providerKeys);
        expect(bySlug.acme).to.deep.equal({
          slug: 'acme',
          name: 'Acme Weather',
          description: 'A test provider.',
          auth: 'api_key',
          scopes: [],
          zero_retention: true,
          platform_credential: true,
          task_count: 3,
        });
        expect(bySlug.github).to.include({ auth: 'oauth2', platform_credential: false });
        expect(bySlug.github.scopes).to.deep.equal(['read:user']);
        expect(bySlug['open-meteo']).to.include({ auth: 'none', task_count: 2 });
        expect(res.payload).to.not.include(PLATFORM_SECRET);
        expect(res.payload).to.not.include('CATALOG_TEST_ACME_KEY');
      });

      it('shows one provider, or 404 provider_not_found', async () => {
        const res = await get('/v1/providers/slack');
        expect(res.statusCode).to.equal(200);
        expect(res.json).to.include({ slug: 'slack', auth: 'oauth2' });
        expect(res.json.scopes).to.deep.equal(['chat:write', 'channels:read']);
        problem(await get('/v1/providers/nobody'), 404, 'provider_not_found');
      });
    });

    describe('svc-catalog-version', () => {
      it('is on every response: success, problem, unauthenticated and health', async () => {
        const { version } = h().gateway.catalog;
        expect(version).to.match(/^[0-9a-f]{12}$/);
        for (const res of [
          await get('/v1/tasks'),
          await get('/v1/tasks/acme.nothing'),
          await get('/v1/providers', { authorization: null }),
          await get('/v1/no-such-route'),
          await get('/health', { authorization: null }),
        ]) {
          expect(res.headers['svc-catalog-version'], `${res.statusCode} ${res.payload}`).to.equal(version);
        }
      });
    });

    describe('principal-bound tokens', () => {
      it('may read tasks and capabilities as their own principal only', async () => {
        const token = `Bearer ${await tokenFor(h(), 'user:ada')}`;
        expect((await get('/v1/tasks?kind=utility', { authorization: token })).statusCode).to.equal(200);
        expect((await get('/v1/tasks/builtin.time.now', { authorization: token, 'svc-principal': 'user:ada' })).statusCode).to.equal(200);
        expect((await get('/v1/capabilities/email.send', { authorization: token })).statusCode).to.equal(200);
        problem(await get('/v1/tasks', { authorization: token, 'svc-principal': 'user:bob' }), 403, 'principal_forbidden');
        problem(await get('/v1/tasks/builtin.time.now', { authorization: token, 'svc-principal': 'organization' }), 403, 'principal_forbidden');
        problem(await get('/v1/capabilities/email.send', { authorization: token, 'svc-principal': 'user:bob' }), 403, 'principal_forbidden');
      });

      it('may not read providers: 403 role_forbidden', async () => {
        const token = `Bearer ${await tokenFor(h(), 'user:ada')}`;
        problem(await get('/v1/providers', { authorization: token }), 403, 'role_forbidden');
        problem(await get('/v1/providers/github', { authorization: token }), 403, 'role_forbidden');
      });

      it('organization keys of any role read everything and may name any principal', async () => {
        const member = `Bearer ${await h().keyWithRole('member')}`;
        expect((await get('/v1/providers', { authorization: member })).statusCode).to.equal(200);
        expect((await get('/v1/tasks', { authorization: member, 'svc-principal': 'user:bob' })).statusCode).to.equal(200);
      });
    });
  },
  { config: { catalog: { files: [fixture] } } },
);
