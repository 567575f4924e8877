import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { openDatabase, type Database } from '../../src/db/database.js';
import { emitConnectionEvent } from '../../src/domain/webhooks/events.js';
import { createTestDatabase, dialects, type TestDatabase } from '../support/databases.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { databaseEnv, initialOwnerKey, projectRoot, runGateway, startGateway, type RunningGateway } from '../support/process.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

const PRINCIPAL = 'user:metrics-alice';

for (const dialect of dialects) {
  describe(`GET /metrics from a real gateway serve [${dialect}]`, function () {
    this.timeout(120000);
    const metricsToken = `mt_${randomBytes(16).toString('hex')}`;
    let database: TestDatabase;
    let upstream: FakeProvider;
    let receiver: Receiver;
    let db: Database;
    let env: NodeJS.ProcessEnv;
    let gateway: RunningGateway | undefined;
    let ownerKey: string;
    let organizationId: string;

    async function api(method: string, route: string, options: { headers?: Record<string, string>; body?: object; key?: string } = {}) {
      const response = await fetch(`${gateway!.url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${options.key ?? ownerKey}`,
          ...(options.body ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        body: options.body && JSON.stringify(options.body),
      });
      return { status: response.status, type: response.headers.get('content-type'), json: (await response.json().catch(() => null)) as any };
    }

    async function scrape(authorization?: string): Promise<Response> {
      return fetch(`${gateway!.url}/metrics`, { headers: authorization ? { authorization } : {} });
    }

    before(async () => {
      database = await createTestDatabase(dialect);
      upstream = await startFakeProvider();
      upstream.on('GET', '/things/1', { json: { id: '1' } });
      upstream.on('GET', '/things/broken', { status: 500, json: { error: 'down' } });
      // The first delivery is accepted, every later one refused: one delivered, one waiting for its retry.
      receiver = await startReceiver((n) => ({ status: n === 1 ? 204 : 500 }));
      env = {
        ...databaseEnv(database),
        GATEWAY_CATALOG: path.join(projectRoot, 'test', 'fixtures', 'run-catalog.yaml'),
        GATEWAY_PROVIDERS__RT_OPEN__BASE_URL: upstream.url,
        GATEWAY_WEBHOOKS__ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_WEBHOOKS__POLL_INTERVAL_MS: '50',
        GATEWAY_WEBHOOKS__RETRY_BASE_MS: '600000',
      };
      gateway = await startGateway({ ...env, GATEWAY_METRICS__TOKEN: metricsToken });
      ownerKey = initialOwnerKey(database);
      organizationId = (await api('GET', '/v1/me')).json.organization.id;
      db = await openDatabase(database.url);
    });
    after(async () => {
      await gateway?.stop();
      await db?.close();
      await upstream?.close();
      await receiver?.close();
      await database?.drop();
    });

    it('counts runs by provider and outcome, times them, and keeps every label free of organizations, keys, tokens and principals', async () => {
      const only = (provider: string) => ({ 'svc-only': provider, 'svc-principal': PRINCIPAL });
      for (let i = 0; i < 3; i++) {
        const hit = await api('POST', '/v1/tasks/rt-open.things.get/run', { body: { id: '1' }, headers: only('rt-open') });
        expect(hit.status, JSON.stringify(hit.json)).to.equal(200);
      }
      const miss = await api('POST', '/v1/tasks/rt-open.things.get/run', { body: { id: '1' }, headers: only('rt-keyq') });
      expect(miss.json.code).to.equal('miss');
      const fault = await api('POST', '/v1/tasks/rt-open.things.get/run', { body: { id: 'broken' }, headers: only('rt-open') });
      expect(fault.json.code).to.equal('upstream_error');
      // Secrets and ids in a path are not labels: an unknown path, and a path parameter holding the owner key.
      expect((await api('GET', `/v1/${organizationId}/${ownerKey}`)).json.code).to.equal('route_not_found');
      expect((await api('DELETE', `/v1/tokens/${ownerKey}`)).status).to.be.within(400, 499);

      const created = await api('POST', '/v1/webhooks', { body: { url: receiver.url } });
      expect(created.status, JSON.stringify(created.json)).to.equal(200);
      receiver.secret = created.json.secret;
      const delivered = await emitConnectionEvent(db, organizationId, 'connection.created', { id: 'conn_metrics_1' });
      await eventually('the first delivery', async () => (await deliveryState(db, delivered)) === 'delivered');
      const retried = await emitConnectionEvent(db, organizationId, 'connection.created', { id: 'conn_metrics_2' });
      await eventually('the second delivery to be refused once', async () => (await deliveryAttempts(db, retried)) === 1);

      const answer = await scrape(`Bearer ${metricsToken}`);
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('content-type')).to.match(/^text\/plain; ?version=0\.0\.4/);
      const text = await answer.text();
      const families = parsePrometheusTextFormat(text);
      // The parser folds a labelled histogram's series into one; without the TYPE lines every series
      // (name_bucket, name_count, name_sum) is read with its labels, as runs of samples gathered here by name.
      const series = parsePrometheusTextFormat(text.replace(/^# TYPE .*$/gm, '')).reduce<ParsedFamily[]>((merged, run) => {
        const known = merged.find((f) => f.name === run.name);
        if (known) known.metrics.push(...run.metrics);
        else merged.push(run);
        return merged;
      }, []);
      const find = (from: ParsedFamily[], name: string) => {
        const found = from.find((f) => f.name === name);
        expect(found, `metric ${name}`).to.not.equal(undefined);
        return found!;
      };
      const family = (name: string) => find(families, name);
      const value = (name: string, labels: Record<string, string> = {}) => {
        const sample = find(series, name).metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
        return sample === undefined ? undefined : Number(sample.value);
      };

      const types = Object.fromEntries(families.map((f) => [f.name, f.type]));
      expect(types).to.include({
        gateway_http_requests_total: 'COUNTER',
        gateway_http_request_duration_seconds: 'HISTOGRAM',
        gateway_runs_total: 'COUNTER',
        gateway_upstream_duration_seconds: 'HISTOGRAM',
        gateway_run_overhead_seconds: 'HISTOGRAM',
        gateway_webhook_deliveries_total: 'COUNTER',
        gateway_webhook_deliveries_waiting: 'GAUGE',
      });

      const runCounts = Object.fromEntries(find(series, 'gateway_runs_total').metrics.map((m) => [`${m.labels!.provider} ${m.labels!.outcome}`, Number(m.value)]));
      expect(runCounts).to.deep.equal({ 'rt-open hit': 3, 'rt-open miss': 1, 'rt-open fault': 1 });

      expect(value('gateway_run_overhead_seconds_count')).to.equal(5);
      const overheadBounds = find(series, 'gateway_run_overhead_seconds_bucket').metrics.map((m) => m.labels!.le);
      expect(overheadBounds, 'fine buckets from 0.1 ms to 100 ms').to.include.members(['0.0001', '0.0005', '0.001', '0.01', '0.1', '+Inf']);
      expect(value('gateway_run_overhead_seconds_bucket', { le: '+Inf' })).to.equal(5);
      expect(value('gateway_upstream_duration_seconds_count', { provider: 'rt-open' }), 'hits and the fault called upstream; the miss did not').to.equal(4);
      expect(value('gateway_upstream_duration_seconds_sum', { provider: 'rt-open' })).to.be.greaterThan(0);

      const runRoute = { route: '/v1/tasks/{id}/run', method: 'POST' };
      expect(value('gateway_http_requests_total', { ...runRoute, status: '200' })).to.equal(3);
      expect(value('gateway_http_requests_total', { ...runRoute, status: '404' })).to.equal(1);
      expect(value('gateway_http_requests_total', { ...runRoute, status: '502' })).to.equal(1);
      expect(value('gateway_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).to.be.at.least(1);
      expect(value('gateway_http_requests_total', { route: '/v1/tokens/{id}', method: 'DELETE' })).to.equal(1);
      expect(value('gateway_http_request_duration_seconds_count', runRoute)).to.equal(5);

      expect(value('gateway_webhook_deliveries_total', { outcome: 'delivered' })).to.equal(1);
      expect(value('gateway_webhook_deliveries_total', { outcome: 'retrying' })).to.equal(1);
      expect(value('gateway_webhook_deliveries_waiting')).to.equal(1);

      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) family(name);

      const routes = new Set(find(series, 'gateway_http_requests_total').metrics.map((m) => m.labels!.route));
      for (const route of routes) expect(route === 'unmatched' || route.startsWith('/'), route).to.equal(true);
      const secrets = [organizationId, ownerKey, metricsToken, PRINCIPAL, 'metrics-alice'];
      for (const f of series) {
        for (const m of f.metrics) {
          for (const [label, value] of Object.entries(m.labels ?? {})) {
            for (const secret of secrets) expect(value, `${f.name}{${label}}`).to.not.contain(secret);
          }
        }
      }
    });

    it('answers 401 problem+json without the token (unauthenticated) or with a wrong one (invalid_token)', async () => {
      const expected: [string | undefined, string][] = [
        [undefined, 'unauthenticated'],
        [metricsToken, 'unauthenticated'],
        [`Bearer ${metricsToken}x`, 'invalid_token'],
        [`Bearer ${ownerKey}`, 'invalid_token'],
      ];
      for (const [authorization, code] of expected) {
        const answer = await scrape(authorization);
        expect(answer.status, String(authorization)).to.equal(401);
        expect(answer.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(answer.headers.get('www-authenticate')).to.equal('Bearer');
        const problem = (await answer.json()) as { code: string; detail: string };
        expect(problem.code, String(authorization)).to.equal(code);
        expect(problem.detail).to.not.contain(metricsToken);
      }
    });

    it('is an unknown route, 404 route_not_found, when no metrics.token is configured', async () => {
      await gateway!.stop();
      gateway = await startGateway(env);
      const metrics = await scrape(`Bearer ${metricsToken}`);
      const unknown = await fetch(`${gateway.url}/no-such-route`, { headers: { authorization: `Bearer ${metricsToken}` } });
      expect(metrics.status).to.equal(404);
      expect(metrics.headers.get('content-type')).to.equal(unknown.headers.get('content-type'));
      const [problem, unknownProblem] = [(await metrics.json()) as Record<string, unknown>, (await unknown.json()) as Record<string, unknown>];
      expect(problem.code).to.equal('route_not_found');
      expect(problem).to.deep.equal(unknownProblem);
    });
  });
}

describe('metrics.token', function () {
  this.timeout(60000);

  it('must be at least 16 characters: 15 stops the gateway with one line naming the key (exit 2), 16 is accepted', async () => {
    const database = await createTestDatabase('sqlite');
    const env = { GATEWAY_DATA_DIR: database.dataDir };
    const short = await runGateway(['serve', '--port', '0'], { ...env, GATEWAY_METRICS__TOKEN: 'x'.repeat(15) });
    expect(short.code).to.equal(2);
    expect(short.stderr.trim().split('\n')).to.have.length(1);
    expect(short.stderr).to.contain('metrics.token').and.not.contain('x'.repeat(15));
    const enough = await runGateway(['doctor', '--json'], { ...env, GATEWAY_METRICS__TOKEN: 'x'.repeat(16) });
    expect((JSON.parse(enough.stdout) as { checks: Array<{ name: string; ok: boolean }> }).checks[0]).to.include({ name: 'config', ok: true });
  });
});

async function deliveryState(db: Database, eventId: string): Promise<string | undefined> {
  const [row] = await db.select<{ state: string }>('SELECT state FROM webhook_deliveries WHERE event_id = $1', [eventId]);
  return row?.state;
}

async function deliveryAttempts(db: Database, eventId: string): Promise<number> {
  const [row] = await db.select<{ attempts: number | string }>('SELECT attempts FROM webhook_deliveries WHERE event_id = $1', [eventId]);
  return Number(row?.attempts ?? 0);
}
