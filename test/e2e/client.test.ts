import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_TYPES_FILE, clientTypes } from '../../scripts/openapi.js';
import { createClient } from '../../src/client/index.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { databaseEnv, initialOwnerKey, projectRoot, startGateway, type RunningGateway } from '../support/process.js';

for (const dialect of dialects) {
  describe(`the typed client against a real gateway serve [${dialect}]`, function () {
    this.timeout(90000);
    let database: TestDatabase;
    let upstream: FakeProvider;
    let gateway: RunningGateway;
    let key: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      upstream = await startFakeProvider();
      gateway = await startGateway({
        ...databaseEnv(database),
        GATEWAY_CATALOG: path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml'),
        GATEWAY_PROVIDERS__RT_OPEN__BASE_URL: upstream.url,
      });
      key = initialOwnerKey(database);
    });
    after(async () => {
      await gateway?.stop();
      await upstream?.close();
      await database?.drop();
    });

    it('reads the caller, lists and inspects tasks, runs one and finds its call in the audit', async () => {
      const client = createClient({ baseUrl: gateway.url, token: key });

      const me = await client.GET('/v1/me');
      expect(me.response.status).to.equal(200);
      expect(me.data).to.deep.include({ kind: 'api_key', principal: 'organization' });

      const tasks = await client.GET('/v1/tasks', { params: { query: { provider: 'rt-open' } } });
      expect(tasks.data?.tasks.map((task) => task.id)).to.include('rt-open.weather.now');

      const task = await client.GET('/v1/tasks/{id}', { params: { path: { id: 'rt-open.weather.now' } } });
      expect(task.data?.input).to.deep.include({ required: ['city'] });

      upstream.on('GET', '/weather/Paris', { json: { temp: 21 } });
      const run = await client.POST('/v1/tasks/{id}/run', {
        params: { path: { id: 'rt-open.weather.now' }, header: { 'svc-tag': 'typed-client' } },
        body: { city: 'Paris' },
      });
      expect(run.error).to.equal(undefined);
      expect(run.data?.output).to.deep.equal({ temp: 21 });
      expect(run.data?.receipt).to.include({ identity: 'anonymous', principal: 'organization', charged_usd: 0 });
      expect(run.response.headers.get('svc-catalog-version')).to.be.a('string');

      const calls = await client.GET('/v1/calls', { params: { query: { tag: 'typed-client' } } });
      expect(calls.data?.calls.map((call) => call.id)).to.deep.equal([run.data!.receipt.call_id]);
      const call = await client.GET('/v1/calls/{id}', { params: { path: { id: run.data!.receipt.call_id } } });
      expect(call.data).to.include({ task: 'rt-open.weather.now', outcome: 'hit', tag: 'typed-client' });
    });

    it('is typed from exactly the document the running gateway serves', async () => {
      const served = await fetch(`${gateway.url}/v1/openapi.json`);
      expect(served.status).to.equal(200);
      const document = (await served.json()) as Record<string, unknown>;
      expect(document.servers).to.deep.equal([{ url: gateway.url }]);
      expect((await clientTypes(document)) === readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'src/client/schema.ts differs from the served document').to.equal(true);
    });

    it('answers errors as typed problem+json bodies', async () => {
      const client = createClient({ baseUrl: gateway.url, token: key });
      const missing = await client.GET('/v1/tasks/{id}', { params: { path: { id: 'no.such.task' } } });
      expect(missing.response.status).to.equal(404);
      expect(missing.error).to.include({ status: 404, code: 'task_not_found' });

      const stranger = createClient({ baseUrl: gateway.url, token: 'gw_live_not-a-key' });
      const refused = await stranger.GET('/v1/me');
      expect(refused.error).to.include({ status: 401, code: 'invalid_token' });
    });
  });
}
