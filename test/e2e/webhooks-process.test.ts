import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/database.js';
import { emitConnectionEvent } from '../../src/domain/webhooks/events.js';
import { createTestDatabase, dialects, type Dialect, type TestDatabase } from '../support/databases.js';
import { startGateway, type RunningGateway } from '../support/process.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

interface DeliveryRow {
  state: string;
  attempts: number;
  last_status: number | null;
}

/** Real `gateway serve` processes (the TypeScript sources), a real receiver, and the database they share. */
function processSuite(dialect: Dialect, title: string, body: (get: () => Setup) => void): void {
  describe(`${title} [${dialect}]`, function () {
    this.timeout(120000);
    const setup = {} as Setup;
    before(async () => {
      setup.database = await createTestDatabase(dialect);
      setup.receiver = await startReceiver();
      setup.running = [];
      setup.env = {
        GATEWAY_DATA_DIR: setup.database.dataDir,
        GATEWAY_DATABASE_URL: setup.database.url,
        GATEWAY_SECRET_KEY: 'e2e-webhooks-secret-key-of-at-least-32-characters',
        GATEWAY_WEBHOOKS__ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_WEBHOOKS__POLL_INTERVAL_MS: '50',
        GATEWAY_WEBHOOKS__RETRY_BASE_MS: '50',
        GATEWAY_WEBHOOKS__TIMEOUT_MS: '1000',
        GATEWAY_WEBHOOKS__MAX_ATTEMPTS: '10',
      };
      setup.start = async () => {
        const gateway = await startGateway(setup.env);
        setup.running.push(gateway);
        return gateway;
      };
    });
    after(async () => {
      await Promise.all(setup.running.map((gateway) => gateway.stop('SIGKILL')));
      await setup.db?.close();
      await setup.receiver.close();
      await setup.database.drop();
    });
    body(() => setup);
  });
}

interface Setup {
  database: TestDatabase;
  receiver: Receiver;
  env: NodeJS.ProcessEnv;
  running: RunningGateway[];
  db: Database;
  hook?: { webhookId: string; organizationId: string };
  start(): Promise<RunningGateway>;
}

/** One API request to a running server with the bootstrap owner key (read from the data directory, as a new user would). */
async function api(setup: Setup, server: RunningGateway, method: string, route: string, body?: object) {
  const ownerKey = readFileSync(path.join(setup.database.dataDir, 'initial-owner-key'), 'utf8').trim();
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${ownerKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body && JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

/** Registers the receiver (once per suite) through the running server's API. */
async function registerReceiver(setup: Setup, server: RunningGateway): Promise<{ webhookId: string; organizationId: string }> {
  if (setup.hook) return setup.hook;
  const created = await api(setup, server, 'POST', '/v1/webhooks', { url: setup.receiver.url });
  expect(created.status, JSON.stringify(created.json)).to.equal(200);
  setup.receiver.secret = created.json.secret;
  setup.db ??= await openDatabase(setup.database.url);
  const [org] = await setup.db.select<{ id: string }>('SELECT id FROM organizations');
  setup.hook = { webhookId: created.json.id, organizationId: org.id };
  return setup.hook;
}

async function deliveryOf(setup: Setup, eventId: string): Promise<DeliveryRow> {
  const [row] = await setup.db.select<DeliveryRow>('SELECT state, attempts, last_status FROM webhook_deliveries WHERE event_id = $1', [eventId]);
  return row;
}

const connection = { id: 'conn_e2e', provider: 'github', principal: 'user:ada', status: 'active' };

for (const dialect of dialects) {
  processSuite(dialect, 'webhook deliveries survive kill -9', (get) => {
    it('finishes a delivery that was waiting for its retry when the server was killed', async () => {
      const setup = get();
      const first = await setup.start();
      const { organizationId } = await registerReceiver(setup, first);
      setup.receiver.answer = () => ({ status: 503, headers: { 'retry-after': '3' } });
      const eventId = await emitConnectionEvent(setup.db, organizationId, 'connection.created', connection);

      await eventually('the first attempt to be recorded', async () => (await deliveryOf(setup, eventId)).attempts >= 1);
      await first.stop('SIGKILL');
      expect(await deliveryOf(setup, eventId)).to.include({ state: 'pending', last_status: 503 });

      setup.receiver.answer = () => ({ status: 200 });
      await setup.start();
      await eventually('the delivery to finish after the restart', async () => (await deliveryOf(setup, eventId)).state === 'delivered');
      const receipts = setup.receiver.receipts.filter((r) => r.webhookId === eventId);
      expect(receipts.at(-1)).to.include({ verified: true, answeredWith: 200 });
      expect(receipts.every((r) => r.verified)).to.equal(true);
    });

    it('finishes a delivery whose attempt was in flight when the server was killed, once its lease lapses', async () => {
      const setup = get();
      await Promise.all(setup.running.splice(0).map((gateway) => gateway.stop('SIGKILL')));
      const first = await setup.start();
      const { organizationId } = await registerReceiver(setup, first);
      setup.receiver.answer = () => ({ hang: true });
      const eventId = await emitConnectionEvent(setup.db, organizationId, 'connection.revoked', connection);

      await eventually('the attempt to reach the receiver', () => setup.receiver.receipts.some((r) => r.webhookId === eventId));
      await first.stop('SIGKILL');
      expect(await deliveryOf(setup, eventId)).to.include({ state: 'pending', attempts: 0 });

      setup.receiver.answer = () => ({ status: 204 });
      await setup.start();
      await eventually('the delivery to finish after the restart', async () => (await deliveryOf(setup, eventId)).state === 'delivered', 30000);
      const receipts = setup.receiver.receipts.filter((r) => r.webhookId === eventId);
      expect(receipts).to.have.length(2);
      expect(receipts[1]).to.include({ verified: true, answeredWith: 204 });
    });
  });
}

for (const dialect of dialects) {
  processSuite(dialect, 'webhooks as a new user meets them', (get) => {
    let provider: http.Server;
    before(async () => {
      // The provider's probe endpoint, so POST /v1/connections can check a key without the internet.
      provider = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
      await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
      get().env.GATEWAY_PROVIDERS__NEWSAPI__BASE_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => provider.close(() => resolve())));

    it('creating and revoking a connection delivers two signed events, listed as delivered', async () => {
      const setup = get();
      const server = await setup.start();
      const { webhookId } = await registerReceiver(setup, server);
      const created = await api(setup, server, 'POST', '/v1/connections', { provider: 'newsapi', principal: 'user:ada', credential: 'news-key-1234' });
      expect(created.status, JSON.stringify(created.json)).to.equal(200);
      const revoked = await api(setup, server, 'DELETE', `/v1/connections/${created.json.id}`);
      expect(revoked.status, JSON.stringify(revoked.json)).to.equal(200);

      await eventually('both deliveries', async () => {
        const listed = await api(setup, server, 'GET', `/v1/webhooks/${webhookId}/deliveries`);
        return listed.json.deliveries.length === 2 && listed.json.deliveries.every((d: { state: string }) => d.state === 'delivered');
      }, 30000);
      const listed = (await api(setup, server, 'GET', `/v1/webhooks/${webhookId}/deliveries`)).json.deliveries;
      expect(listed.map((d: { event: string }) => d.event)).to.deep.equal(['connection.revoked', 'connection.created']);
      expect(setup.receiver.receipts.every((r) => r.verified)).to.equal(true);
      const payloads = setup.receiver.receipts.map((r) => JSON.parse(r.body));
      expect(payloads.map((p) => p.type).sort()).to.deep.equal(['connection.created', 'connection.revoked']);
      expect(payloads.every((p) => p.data.connection.id === created.json.id)).to.equal(true);
      expect(payloads.find((p) => p.type === 'connection.revoked').data.connection.status).to.equal('revoked');
      expect(JSON.stringify(payloads)).to.not.include('news-key-1234');
    });
  });
}

processSuite('postgres', 'two gateway processes on one Postgres', (get) => {
  it('deliver every event exactly once between them', async () => {
    const setup = get();
    const first = await setup.start();
    await setup.start();
    const { webhookId, organizationId } = await registerReceiver(setup, first);
    // Slow answers keep both workers busy at once, so they really compete for the queue.
    setup.receiver.answer = () => ({ status: 200, delayMs: 20 });

    const events: string[] = [];
    for (let i = 0; i < 60; i++) {
      events.push(await emitConnectionEvent(setup.db, organizationId, 'connection.created', { ...connection, id: `conn_${i}` }));
    }
    await eventually('every delivery to be recorded', async () => {
      const [{ done }] = await setup.db.select<{ done: number | string }>(
        `SELECT COUNT(*) AS done FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'delivered'`,
        [webhookId],
      );
      return Number(done) === events.length;
    }, 60000);

    const received = setup.receiver.receipts.map((r) => r.webhookId);
    expect(received).to.have.length(events.length);
    expect(new Set(received)).to.deep.equal(new Set(events));
    expect(setup.receiver.receipts.every((r) => r.verified)).to.equal(true);
    const attempts = await setup.db.select<{ attempts: number }>('SELECT attempts FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
    expect(attempts.every((row) => Number(row.attempts) === 1)).to.equal(true);
  });
});
