import { expect } from 'chai';
import { findCall, insertCall } from '../../src/db/repos/calls.js';
import { claimIdempotencyKey, findIdempotencyKey } from '../../src/db/repos/idempotency.js';
import { backgroundTasks } from '../../src/domain/background.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/domain/idempotency.js';
import { newId } from '../../src/domain/ids.js';
import { pendingCallSweep } from '../../src/domain/run/sweep.js';
import { eachDialect, type Harness } from '../support/harness.js';

/** A call started at `createdAt` by the run's own statement and never settled. */
async function pendingCall(h: Harness, createdAt: number): Promise<string> {
  const id = newId('call', createdAt);
  await insertCall(
    h.gateway.db,
    {
      id, organization_id: h.organizationId, task_id: 'rt-open.weather.now', provider: 'rt-open', principal: 'organization',
      token_id: null, connection_id: null, identity: 'platform', outcome: 'pending', http_status: null, error_code: null,
      quoted_micros: 2000, charged_micros: 0, latency_ms: null, tag: null, approval_id: null, created_at: createdAt, updated_at: createdAt,
    },
    true,
  );
  return id;
}

/** An idempotency key claimed at `createdAt` by a request that never finished. */
async function claim(h: Harness, key: string, createdAt: number): Promise<void> {
  await claimIdempotencyKey(h.gateway.db, h.organizationId, key, 'x', createdAt, createdAt + IDEMPOTENCY_TTL_MS);
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
    const swept = (await findCall(h().gateway.db, h().organizationId, stale))!;
    expect(swept).to.include({ outcome: 'fault', error_code: 'upstream_error' });
    expect(Number(swept.http_status)).to.equal(502);
    expect(Number(swept.charged_micros)).to.equal(0);
    expect((await findCall(h().gateway.db, h().organizationId, live))!.outcome).to.equal('pending');
    expect(await findIdempotencyKey(h().gateway.db, h().organizationId, 'stale-key')).to.equal(null);
    expect(await findIdempotencyKey(h().gateway.db, h().organizationId, 'live-key')).to.not.equal(null);
  });
});
