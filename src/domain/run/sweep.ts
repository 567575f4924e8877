import { faultStalePendingCalls } from '../../db/repos/calls.js';
import { deleteExpiredKeys, releaseStaleClaims } from '../../db/repos/idempotency.js';
import type { BackgroundTask } from '../background.js';
import type { Gateway } from '../gateway.js';

/** Sweeps again every minute, so a crashed sibling instance's calls are settled too. */
const SWEEP_EVERY_MS = 60_000;

/**
 * A call still `pending` well past the upstream timeout belongs to a process that stopped mid-call: it
 * becomes a `fault` (charged 0), and its idempotency claim is released so a retry can run. The margin
 * keeps a sibling instance's live calls (several `serve` processes on one database) untouched.
 */
export async function sweepPendingCalls(gateway: Pick<Gateway, 'config' | 'db' | 'log'>, now = Date.now()): Promise<number> {
  const staleBefore = now - gateway.config.upstream.timeout_ms - SWEEP_EVERY_MS;
  const [calls] = await Promise.all([
    faultStalePendingCalls(gateway.db, staleBefore, now),
    releaseStaleClaims(gateway.db, staleBefore),
    deleteExpiredKeys(gateway.db, now),
  ]);
  if (calls) gateway.log.warn({ calls }, 'calls left pending by a stopped process recorded as faults');
  return calls;
}

export const pendingCallSweep: BackgroundTask = {
  name: 'pending-call-sweep',
  async start(gateway) {
    await sweepPendingCalls(gateway);
    const timer = setInterval(() => {
      sweepPendingCalls(gateway).catch((err: Error) => gateway.log.error({ err: { name: err.name } }, 'pending call sweep failed'));
    }, SWEEP_EVERY_MS);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
      },
    };
  },
};
