import { readFileSync } from 'node:fs';
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

/** Registers the receiver (once per suite) through the running server's API with the bootstrap owner key. */
async function registerReceiver(setup: Setup, server: RunningGateway): Promise<{ webhookId: string; organizationId: string }> {
  if (setup.hook) return setup.hook;
  const ownerKey = readFileSync(path.join(setup.database.dataDir, 'initial-owner-key'), 'utf8').trim();
  const response = await fetch(`${server.url}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: setup.receiver.url }),
  });
  const created = (await response.json()) as { id: string; secret: string };
  expect(response.status, JSON.stringify(created)).to.equal(200);
  setup.receiver.secret = created.secret;
  setup.db ??= await openDatabase(setup.database.url);
  const [org] = await setup.db.select<{ id: string }>('SELECT id FROM organizations');
  setup.hook = { webhookId: created.id, organizationId: org.id };
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
      const eventId = await emitConnectionEvent(setup.db, undefined, organizationId, 'connection.created', connection);

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
      const eventId = await emitConnectionEvent(setup.db, undefined, organizationId, 'connection.revoked', connection);

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
      events.push(await emitConnectionEvent(setup.db, undefined, organizationId, 'connection.created', { ...connection, id: `conn_${i}` }));
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
