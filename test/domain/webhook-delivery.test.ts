import { expect } from 'chai';
import { claimDueDeliveries, recordAttempt } from '../../src/db/repos/webhook-deliveries.js';
import type { Gateway } from '../../src/domain/gateway.js';
import { emitConnectionEvent } from '../../src/domain/webhooks/events.js';
import { startDeliveryWorker } from '../../src/domain/webhooks/worker.js';
import { eachDialect } from '../support/harness.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

interface DeliveryRow {
  id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number;
  updated_at: number;
}

const connection = {
  id: 'conn_01',
  provider: 'github',
  principal: 'user:ada',
  account_id: 'ada',
  label: 'Ada',
  status: 'active',
  scopes: ['repo'],
  default: true,
  created_at: '2026-11-22T00:00:00.000Z',
  updated_at: '2026-11-22T00:00:00.000Z',
  last_used_at: null,
};

eachDialect('webhook delivery', (h) => {
  const receivers: Receiver[] = [];
  const workers: Array<{ stop(): Promise<void> }> = [];

  /** A receiver and a webhook registered for it through the API, its secret handed to the receiver. */
  async function hookedReceiver(answer?: Receiver['answer']): Promise<{ receiver: Receiver; webhookId: string }> {
    const receiver = await startReceiver(answer);
    receivers.push(receiver);
    const created = await h().request({ method: 'POST', url: '/v1/webhooks', payload: { url: receiver.url } });
    expect(created.statusCode).to.equal(200);
    receiver.secret = created.json.secret;
    return { receiver, webhookId: created.json.id };
  }

  function startWorker(gateway: Gateway = h().gateway) {
    const worker = startDeliveryWorker(gateway);
    workers.push(worker);
    return worker;
  }

  /** The suite's gateway with other webhook settings (the suite's timeout is generous, so a loaded machine's slow answer is not a timeout). */
  function withWebhooks(settings: Partial<Gateway['config']['webhooks']>): Gateway {
    const gateway = h().gateway;
    return { ...gateway, config: { ...gateway.config, webhooks: { ...gateway.config.webhooks, ...settings } } };
  }

  const emit = (type: Parameters<typeof emitConnectionEvent>[2] = 'connection.created') =>
    emitConnectionEvent(h().gateway.db, h().organizationId, type, connection);

  async function deliveryOf(webhookId: string, eventId: string): Promise<DeliveryRow> {
    const [row] = await h().gateway.db.select<DeliveryRow>(
      'SELECT id, state, attempts, last_status, last_error, next_attempt_at, updated_at FROM webhook_deliveries WHERE webhook_id = $1 AND event_id = $2',
      [webhookId, eventId],
    );
    return row;
  }

  const settled = (webhookId: string, eventId: string, state: string) => async () => (await deliveryOf(webhookId, eventId)).state === state;

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    for (const webhook of (await h().request({ method: 'GET', url: '/v1/webhooks' })).json.webhooks) {
      await h().request({ method: 'DELETE', url: `/v1/webhooks/${webhook.id}` });
    }
  });

  it('delivers an event signed by the Standard Webhooks convention, verified by the receiver with its secret', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    const eventId = await emit('connection.created');
    startWorker();
    await eventually('the delivery to be recorded delivered', settled(webhookId, eventId, 'delivered'));

    expect(receiver.receipts).to.have.length(1);
    const [receipt] = receiver.receipts;
    expect(receipt.verified, 'signature verified with standardwebhooks').to.equal(true);
    expect(receipt.headers['webhook-id']).to.equal(eventId);
    expect(receipt.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Number(receipt.headers['webhook-timestamp'])).to.be.closeTo(Date.now() / 1000, 60);
    expect(receipt.headers['content-type']).to.equal('application/json');
    const payload = JSON.parse(receipt.body);
    expect(Object.keys(payload)).to.deep.equal(['id', 'type', 'created_at', 'data']);
    expect(payload).to.deep.include({ id: eventId, type: 'connection.created', data: { connection } });
    expect(new Date(payload.created_at).toISOString()).to.equal(payload.created_at);

    const listed = (await h().request({ method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries` })).json.deliveries;
    expect(listed[0]).to.include({ event_id: eventId, event: 'connection.created', state: 'delivered', attempts: 1, last_status: 204, last_error: null });
  });

  it('fails verification with another secret (the receiver check is real)', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    receiver.secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const eventId = await emit();
    startWorker();
    await eventually('the delivery', settled(webhookId, eventId, 'delivered'));
    expect(receiver.receipts[0].verified).to.equal(false);
  });

  it('retries after a 500 and records the delivery once the receiver answers 200, with the same webhook-id', async () => {
    const { receiver, webhookId } = await hookedReceiver((n) => ({ status: n === 1 ? 500 : 200 }));
    const eventId = await emit('connection.revoked');
    startWorker();
    await eventually('the retry to succeed', settled(webhookId, eventId, 'delivered'));
    expect(receiver.receipts.map((r) => r.answeredWith)).to.deep.equal([500, 200]);
    expect(receiver.receipts.every((r) => r.verified && r.webhookId === eventId)).to.equal(true);
    expect(receiver.receipts[0].body).to.equal(receiver.receipts[1].body);
    expect(await deliveryOf(webhookId, eventId)).to.include({ attempts: 2, last_status: 200, last_error: null });
  });

  it("waits at least the receiver's Retry-After before the next attempt", async () => {
    const { receiver, webhookId } = await hookedReceiver((n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
    const eventId = await emit();
    startWorker();
    await eventually('the first attempt to be recorded', async () => (await deliveryOf(webhookId, eventId)).attempts >= 1);
    const afterFirst = await deliveryOf(webhookId, eventId);
    expect(afterFirst).to.include({ state: 'pending', attempts: 1, last_status: 503, last_error: 'receiver answered HTTP 503' });
    // retry_base_ms is 20 here, so only the Retry-After can put the next attempt two seconds out.
    expect(afterFirst.next_attempt_at - afterFirst.updated_at).to.be.at.least(2000);
    await eventually('the retry', settled(webhookId, eventId, 'delivered'));
    expect(receiver.receipts[1].receivedAt).to.be.at.least(afterFirst.next_attempt_at);
  });

  it('gives up after webhooks.max_attempts: failed, with the last status and error', async () => {
    const { receiver, webhookId } = await hookedReceiver(() => ({ status: 500 }));
    const eventId = await emit();
    startWorker();
    await eventually('the delivery to fail', settled(webhookId, eventId, 'failed'));
    expect(receiver.receipts).to.have.length(3);
    expect(await deliveryOf(webhookId, eventId)).to.include({ attempts: 3, last_status: 500, last_error: 'receiver answered HTTP 500' });
  });

  it('records a receiver that is down as a connection failure with no status', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    await receiver.close();
    const eventId = await emit();
    startWorker();
    await eventually('the delivery to fail', settled(webhookId, eventId, 'failed'));
    expect(await deliveryOf(webhookId, eventId)).to.include({ attempts: 3, last_status: null, last_error: 'connect refused' });
  });

  it('reads an answer of up to 64 KiB; a longer one is a failed attempt, as a provider\'s would be', async () => {
    const limit = 64 * 1024;
    const fits = await hookedReceiver(() => ({ status: 200, body: 'x'.repeat(limit) }));
    const tooLong = await hookedReceiver(() => ({ status: 200, body: 'x'.repeat(limit + 1) }));
    const eventId = await emit();
    startWorker();
    await eventually('both deliveries to settle', async () =>
      (await settled(fits.webhookId, eventId, 'delivered')()) && (await settled(tooLong.webhookId, eventId, 'failed')()),
    );
    expect(await deliveryOf(fits.webhookId, eventId)).to.include({ attempts: 1, last_status: 200, last_error: null });
    expect(await deliveryOf(tooLong.webhookId, eventId)).to.include({ attempts: 3, last_status: null, last_error: `answer larger than ${limit} bytes` });
  });

  it('gives up on a receiver that never answers within webhooks.timeout_ms', async () => {
    const { receiver, webhookId } = await hookedReceiver(() => ({ hang: true }));
    const eventId = await emit();
    startWorker(withWebhooks({ timeout_ms: 300 }));
    await eventually('the delivery to fail', settled(webhookId, eventId, 'failed'));
    expect(receiver.receipts).to.have.length(3);
    expect(await deliveryOf(webhookId, eventId)).to.include({ last_status: null, last_error: 'no answer within 300 ms' });
  });

  it('never sends the deliveries of a deleted webhook', async () => {
    const deleted = await hookedReceiver();
    const markedDeleted = await hookedReceiver();
    const live = await hookedReceiver();
    const eventId = await emit();
    await h().request({ method: 'DELETE', url: `/v1/webhooks/${deleted.webhookId}` });
    // Deleted underneath a pending delivery without going through the API: the claim itself must skip it.
    await h().gateway.db.execute('UPDATE webhooks SET deleted_at = $1 WHERE id = $2', [Date.now(), markedDeleted.webhookId]);
    startWorker();
    await eventually('the live webhook to be delivered', settled(live.webhookId, eventId, 'delivered'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(deleted.receiver.receipts).to.have.length(0);
    expect(markedDeleted.receiver.receipts).to.have.length(0);
    expect(await deliveryOf(deleted.webhookId, eventId)).to.include({ state: 'failed', attempts: 0, last_error: 'webhook deleted' });
    expect(await deliveryOf(markedDeleted.webhookId, eventId)).to.include({ state: 'pending', attempts: 0 });
  });

  it('leases a claimed delivery: no second claim while the lease holds, reclaimed once it lapses, and the stale holder is fenced off', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    const eventId = await emit();
    const { db } = h().gateway;
    const now = Date.now();
    const first = await claimDueDeliveries(db, { now, leaseUntil: now + 60_000, leaseToken: 'lease-a', limit: 10 });
    expect(first.map((c) => c.event_id)).to.deep.equal([eventId]);
    expect(first[0]).to.include({ url: receiver.url, attempts: 0 });
    expect(await claimDueDeliveries(db, { now: now + 30_000, leaseUntil: now + 90_000, leaseToken: 'lease-b', limit: 10 })).to.deep.equal([]);

    // The holder "dies": its lease lapses and another worker takes the delivery over.
    const second = await claimDueDeliveries(db, { now: now + 60_001, leaseUntil: now + 120_000, leaseToken: 'lease-c', limit: 10 });
    expect(second.map((c) => c.id)).to.deep.equal([first[0].id]);
    const record = { state: 'delivered' as const, last_status: 200, last_error: null, next_attempt_at: now };
    expect(await recordAttempt(db, first[0].id, 'lease-a', record, now)).to.equal(false);
    expect(await recordAttempt(db, first[0].id, 'lease-c', record, now)).to.equal(true);
    expect(await deliveryOf(webhookId, eventId)).to.include({ state: 'delivered', attempts: 1 });
  });

  it('delivers, after the lease lapses, a delivery whose worker died mid-attempt', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    const eventId = await emit();
    const now = Date.now();
    await claimDueDeliveries(h().gateway.db, { now, leaseUntil: now + 300, leaseToken: 'dead-worker', limit: 10 });
    startWorker();
    await eventually('the orphaned delivery to be delivered', settled(webhookId, eventId, 'delivered'));
    expect(receiver.receipts).to.have.length(1);
    expect(receiver.receipts[0].receivedAt).to.be.at.least(now + 300);
  });

  it('lets two workers share the queue without sending any event twice', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    const events: string[] = [];
    for (let i = 0; i < 40; i++) events.push(await emit());
    // Delivery is at least once: an attempt that outlives its lease (timeout_ms plus a margin) is sent again
    // by the other worker. A loaded machine can outlive the suite's timeout, so these two workers hold leases
    // long enough that only a second claim of a live lease could send an event twice.
    const patient = withWebhooks({ timeout_ms: 60_000 });
    startWorker(patient);
    startWorker(patient);
    await eventually('every delivery', async () => {
      const [{ done }] = await h().gateway.db.select<{ done: number | string }>(
        `SELECT COUNT(*) AS done FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'delivered'`,
        [webhookId],
      );
      return Number(done) === events.length;
    });
    const ids = receiver.receipts.map((r) => r.webhookId);
    expect(ids).to.have.length(events.length);
    expect(new Set(ids)).to.deep.equal(new Set(events));
  });

  it('re-checks the target at delivery time: a name now resolving to loopback is refused when private targets are not allowed', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await h().request({ method: 'POST', url: '/v1/webhooks', payload: { url: receiver.url.replace('127.0.0.1', 'localhost') } });
    const eventId = await emit();
    startWorker(withWebhooks({ allow_private_targets: false }));
    await eventually('the delivery to fail', settled(created.json.id, eventId, 'failed'));
    expect(receiver.receipts).to.have.length(0);
    expect((await deliveryOf(created.json.id, eventId)).last_error).to.match(/^target refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  it('stops cleanly: after stop() no delivery is claimed', async () => {
    const { receiver, webhookId } = await hookedReceiver();
    const worker = startWorker();
    await worker.stop();
    const eventId = await emit();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.receipts).to.have.length(0);
    expect(await deliveryOf(webhookId, eventId)).to.include({ state: 'pending', attempts: 0 });
  });
}, {
  config: {
    webhooks: { allow_private_targets: true, retry_base_ms: 20, timeout_ms: 5000, max_attempts: 3, poll_interval_ms: 20, max_per_org: 1000 },
  },
});
