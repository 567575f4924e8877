import { expect } from 'chai';
import { backgroundTasks } from '../../src/domain/background.js';
import { newId } from '../../src/domain/ids.js';
import { pendingCallSweep } from '../../src/domain/run/sweep.js';
import { eachDialect, type Harness } from '../support/harness.js';

async function pendingCall(h: Harness, createdAt: number): Promise<string> {
  const id = newId('call', createdAt);
  await h.gateway.db.execute(
    `INSERT INTO calls (id, organization_id, task_id, provider, principal, token_id, connection_id, identity, outcome, http_status,
                        error_code, quoted_micros, charged_micros, latency_ms, tag, created_at, updated_at)
     VALUES ($1, $2, 'rt-open.weather.now', 'rt-open', 'organization', NULL, NULL, 'platform', 'pending', NULL, NULL, 2000, 0, NULL, NULL, $3, $3)`,
    [id, h.organizationId, createdAt],
  );
  return id;
}

async function claim(h: Harness, key: string, createdAt: number): Promise<void> {
  await h.gateway.db.execute(
    `INSERT INTO idempotency_keys (organization_id, idempotency_key, request_hash, state, status_code, response, created_at, expires_at)
     VALUES ($1, $2, 'x', 'in_flight', NULL, NULL, $3, $4)`,
    [h.organizationId, key, createdAt, createdAt + 86_400_000],
  );
}

eachDialect('run: calls left pending by a stopped process', (h) => {
  it('is one of the tasks `serve` starts', () => {
    expect(backgroundTasks).to.include(pendingCallSweep);
  });

  it('become faults (charged 0) when the sweep starts; recent pending calls and claims are left to their process', async () => {
    const now = Date.now();
    const stale = await pendingCall(h(), now - 5 * 60_000);
    const live = await pendingCall(h(), now - 1000);
    await claim(h(), 'stale-key', now - 5 * 60_000);
    await claim(h(), 'live-key', now - 1000);
    const running = await pendingCallSweep.start(h().gateway);
    await running.stop();
    const rows = await h().gateway.db.select<Record<string, any>>('SELECT id, outcome, error_code, http_status, charged_micros FROM calls ORDER BY id');
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[stale]).to.include({ outcome: 'fault', error_code: 'upstream_error' });
    expect(Number(byId[stale].http_status)).to.equal(502);
    expect(Number(byId[stale].charged_micros)).to.equal(0);
    expect(byId[live].outcome).to.equal('pending');
    const keys = await h().gateway.db.select<{ idempotency_key: string }>('SELECT idempotency_key FROM idempotency_keys');
    expect(keys.map((k) => k.idempotency_key)).to.deep.equal(['live-key']);
  });
});
