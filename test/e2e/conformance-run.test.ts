import { expect } from 'chai';
import { conformance, problem, long, receiptMembers } from './conformance.js';

conformance('tasks, capabilities, discovery and run', (c) => {
  const { api } = c;

  describe('tasks, capabilities, discovery and run', () => {
    it('GET /v1/tasks pages with next_cursor; inspect answers 200, 404 task_not_found, 410 task_retired and task_broken', async () => {
      const first = await api('GET', '/v1/tasks');
      expect(first.status).to.equal(200);
      expect(first.body).to.have.property('next_cursor');
      if (first.body.next_cursor) {
        const next = await api('GET', `/v1/tasks?cursor=${encodeURIComponent(first.body.next_cursor)}`);
        expect(next.status).to.equal(200);
      }
      const filtered = await api('GET', '/v1/tasks?provider=rt-open&kind=data&capability=rtest.weather.now&q=weather');
      expect(filtered.status).to.equal(200);
      const task = await api('GET', '/v1/tasks/rt-paid.weather.now');
      expect(task.status).to.equal(200);
      expect(task.body).to.include({ id: 'rt-paid.weather.now', price_usd: 0.004 });
      expect(task.body).to.have.property('input');
      problem(await api('GET', '/v1/tasks/nope.nothing'), 404, 'task_not_found');
      problem(await api('GET', '/v1/tasks/rt-open.old.get'), 410, 'task_retired');
      problem(await api('GET', '/v1/tasks/rt-open.bad.get'), 410, 'task_broken');
      expect((await api('GET', '/v1/capabilities/rtest.weather.now')).status).to.equal(200);
      problem(await api('GET', '/v1/capabilities/nope.nothing'), 404, 'capability_not_found');
    });

    it('POST /v1/discover: candidates best first, or an empty list and near_misses', async () => {
      const found = await api('POST', '/v1/discover', { body: { task: 'current weather for a city', limit: 3 } });
      expect(found.status).to.equal(200);
      expect(found.body.candidates).to.be.an('array').that.is.not.empty;
      const none = await api('POST', '/v1/discover', { body: { task: 'book a flight to the moon' } });
      expect(none.status).to.equal(200);
      expect(none.body.candidates).to.deep.equal([]);
      expect(none.body.near_misses).to.be.an('array');
      problem(await api('POST', '/v1/discover', { body: {} }), 400, 'invalid_input');
    });

    it('run answers 200 Run {output, receipt} with the receipt exactly; output unchanged; anonymous identity', async () => {
      const run = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers: { 'svc-tag': 'conf' } });
      expect(run.status, run.text).to.equal(200);
      expect(run.body).to.have.all.keys('output', 'receipt');
      expect(run.body.output).to.deep.equal({ temp: 21, sky: 'clear' });
      expect(run.body.receipt).to.have.all.keys(...receiptMembers);
      expect(run.body.receipt).to.include({ identity: 'anonymous', principal: 'organization', quoted_usd: 0, charged_usd: 0 });
      expect(run.body.receipt.latency_ms).to.be.a('number');

      const call = await api('GET', `/v1/calls/${run.body.receipt.call_id}`);
      expect(call.status).to.equal(200);
      expect((await api('GET', `/v1/calls/${run.body.receipt.call_id}/capture`)).status).to.equal(200);
      const calls = await api('GET', '/v1/calls?outcome=hit&task=rt-open.weather.now&provider=rt-open&principal=organization');
      expect(calls.status).to.equal(200);
      expect(calls.body).to.have.property('next_cursor');
      expect((await api('GET', '/v1/captures')).status).to.equal(200);
      expect((await api('GET', '/v1/usage')).status).to.equal(200);
      problem(await api('GET', '/v1/calls/call_missing'), 404, 'call_not_found');
      problem(await api('GET', '/v1/calls/call_missing/capture'), 404, 'capture_not_found');
      const zero = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers: { 'svc-zero-retention': 'true', 'svc-only': 'rt-mirror' } });
      expect(zero.status, zero.text).to.be.oneOf([200, 502]);
    });

    it('run headers are checked against their documented limits', async () => {
      const run = (headers: Record<string, string>) => api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers });
      for (const headers of <Array<Record<string, string>>>[
        { 'svc-connection': long(101) },
        { 'svc-account': long(321) },
        { 'svc-credential': 'abc' },
        { 'svc-credential': long(8193) },
        { 'svc-tag': long(201) },
        { 'idempotency-key': long(256) },
        { 'svc-fallback': 'always' },
        { 'svc-sort': 'price' },
        { 'svc-zero-retention': 'yes' },
        { 'svc-principal': 'bob' },
      ]) {
        problem(await run(headers), 400, 'invalid_input');
      }
      for (const headers of <Array<Record<string, string>>>[{ 'svc-tag': long(200) }, { 'idempotency-key': long(255) }, { 'svc-account': long(320) }]) {
        expect((await run(headers)).body?.code, Object.keys(headers)[0]).to.not.equal('invalid_input');
      }
    });

    it("run's specific errors: principal_required, grant_required, connection_required, no_credential, miss, mismatch, retired, broken, not found", async () => {
      const run = (id: string, body: unknown, headers: Record<string, string> = {}) => api('POST', `/v1/tasks/${id}/run`, { body, headers });
      problem(await run('rt-oauth.inbox.list', {}), 400, 'principal_required');
      problem(await run('rt-oauth.inbox.list', {}, { 'svc-principal': 'organization' }), 400, 'principal_required');
      const grant = await run('rt-oauth.inbox.list', {}, { 'svc-principal': 'user:nobody' });
      problem(grant, 403, 'grant_required');
      problem(await run('rt-keyq.lookup', { q: 'x' }), 403, 'connection_required');
      problem(await run('rt-paid.quote.get', { symbol: 'ACME' }), 402, 'no_credential');
      problem(await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-only': 'nobody' }), 404, 'miss');
      problem(await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-version': '000000000000' }), 409, 'catalog_version_mismatch');
      expect((await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-version': c.version })).status).to.equal(200);
      problem(await run('rt-open.old.get', {}), 410, 'task_retired');
      problem(await run('rt-open.bad.get', {}), 410, 'task_broken');
      problem(await run('nope.nothing', {}), 404, 'task_not_found');
      problem(await run('rt-open.weather.now', {}), 400, 'invalid_input');
      problem(await run('rt-open.weather.now', { city: 'Paris' }, { 'svc-connection': 'conn_missing' }), 404, 'connection_not_found');
      problem(await run('rt-down.weather.now', { city: 'Paris' }, { 'svc-only': 'rt-down' }), 502, 'upstream_error');
    });

    it('identities and charges: platform, credential, connection; recovery links on grant_required and scope_required', async () => {
      const run = (id: string, body: unknown, headers: Record<string, string> = {}) => api('POST', `/v1/tasks/${id}/run`, { body, headers });
      const platform = await run('rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-fallback': 'platform' });
      expect(platform.status, platform.text).to.equal(200);
      expect(platform.body.receipt).to.include({ identity: 'platform', quoted_usd: 0.002, charged_usd: 0.002 });
      const own = await run('rt-paid.quote.get', { symbol: 'ACME' }, { 'svc-credential': 'caller-key' });
      expect(own.body.receipt).to.include({ identity: 'credential', quoted_usd: 0.002, charged_usd: 0 });
      expect(own.body.output).to.deep.equal({ price: 10, auth: 'Token caller-key' });

      const grant = await run('rt-oauth.profile.get', {}, { 'svc-principal': 'user:olga' });
      problem(grant, 403, 'grant_required');
      expect(grant.body.connect_url).to.match(/^https?:\/\//);
      const connection = await api('POST', '/v1/connections', {
        body: { provider: 'rt-oauth', principal: 'user:olga', credential: { access_token: 'at-1', scopes: ['profile'] } },
      });
      expect(connection.status, connection.text).to.equal(200);
      const viaConnection = await run('rt-oauth.profile.get', {}, { 'svc-principal': 'user:olga' });
      expect(viaConnection.status, viaConnection.text).to.equal(200);
      expect(viaConnection.body.receipt).to.include({ identity: `connection:${connection.body.id}`, principal: 'user:olga', charged_usd: 0 });
      const viaReceiptOptions = await run('rt-oauth.profile.get', { receipt_options: { principal: 'user:olga' } });
      expect(viaReceiptOptions.body.receipt).to.include({ principal: 'user:olga' });
      const scope = await run('rt-oauth.inbox.list', {}, { 'svc-principal': 'user:olga' });
      problem(scope, 403, 'scope_required');
      expect(scope.body.connect_url).to.match(/^https?:\/\//);
      problem(await run('rt-oauth.profile.get', {}, { 'svc-principal': 'organization' }), 400, 'principal_required');
    });

    it('idempotency-key: a repeat answers the first response with the same call_id', async () => {
      const headers = { 'idempotency-key': `conf-${c.dialect}-${Date.now()}` };
      const first = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers });
      const again = await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Paris' }, headers });
      expect(first.status).to.equal(200);
      expect(again.body.receipt.call_id).to.equal(first.body.receipt.call_id);
      problem(await api('POST', '/v1/tasks/rt-open.weather.now/run', { body: { city: 'Rome' }, headers }), 400, 'invalid_input');
    });
  });
});
