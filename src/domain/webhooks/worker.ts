import { randomBytes } from 'node:crypto';
import { claimDueDeliveries, countWaitingDeliveries, recordAttempt, type AttemptRecord, type ClaimedDelivery } from '../../db/repos/webhook-deliveries.js';
import type { BackgroundTask } from '../background.js';
import type { Gateway } from '../gateway.js';
import { retryAfterMs, retryDelay } from './schedule.js';
import { signedHeaders } from './signing.js';
import { targetGuard } from '../../providers/targets.js';
import { sendUpstream, UpstreamUnreachable } from '../../providers/upstream.js';

/** Attempts one process runs at once; an internal safety cap, not a product limit. */
const MAX_IN_FLIGHT = 16;

/**
 * A lease outlives the attempt's own timeout by this margin, so recording the result never races a
 * second worker; a process killed mid-attempt has its rows claimed again once the lease lapses.
 */
const LEASE_MARGIN_MS = 5000;

/** Bytes of a receiver's answer read at most; a longer answer is a failed attempt, like a provider's. */
const MAX_ANSWER_BYTES = 64 * 1024;

const USER_AGENT = 'task-gateway-webhooks/1';

interface Outcome {
  status: number | null;
  error: string | null;
  retryAfter: number | null;
}

/**
 * The delivery worker every `gateway serve` process runs: it leases due deliveries, POSTs each signed
 * event, and records the outcome (delivered on 2xx; otherwise retried on the schedule of
 * schedule.ts, honouring Retry-After, until webhooks.max_attempts, then failed). Stopping it stops
 * claiming and waits for the attempts in flight, each bounded by webhooks.timeout_ms.
 */
export function startDeliveryWorker(gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'log' | 'observer'>): { stop(): Promise<void> } {
  const { db, keyring, log } = gateway;
  const settings = gateway.config.webhooks;
  // Every address connected to is checked again (DNS may have changed since registration); a 3xx is a failed attempt.
  const guard = targetGuard(settings.allow_private_targets);
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let wake: (() => void) | null = null;

  async function send(delivery: ClaimedDelivery): Promise<Outcome> {
    try {
      const headers = signedHeaders(keyring.decrypt(delivery.secret), delivery.event_id, delivery.payload, new Date());
      const answer = await sendUpstream(
        {
          method: 'POST',
          url: delivery.url,
          headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
          body: delivery.payload,
          timeoutMs: settings.timeout_ms,
          maxResponseBytes: MAX_ANSWER_BYTES,
        },
        guard,
      );
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        status: answer.status,
        error: ok ? null : `receiver answered HTTP ${answer.status}`,
        retryAfter: ok ? null : retryAfterMs(answer.headers['retry-after'], Date.now()),
      };
    } catch (err) {
      if (err instanceof UpstreamUnreachable) return { status: null, error: err.message, retryAfter: null };
      throw err;
    }
  }

  function nextRecord(delivery: ClaimedDelivery, outcome: Outcome, now: number): AttemptRecord {
    const attempts = Number(delivery.attempts) + 1;
    const result = { last_status: outcome.status, last_error: outcome.error };
    if (outcome.error === null) return { ...result, state: 'delivered', next_attempt_at: now };
    if (attempts >= settings.max_attempts) return { ...result, state: 'failed', next_attempt_at: now };
    const delay = Math.max(retryDelay(attempts, settings.retry_base_ms), outcome.retryAfter ?? 0);
    return { ...result, state: 'pending', next_attempt_at: now + delay };
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const outcome = await send(delivery);
    const now = Date.now();
    const record = nextRecord(delivery, outcome, now);
    const written = await recordAttempt(db, delivery.id, delivery.lease_token, record, now);
    gateway.observer?.deliveryAttempted(record.state === 'pending' ? 'retrying' : record.state);
    log.info(
      { delivery: delivery.id, event: delivery.event_id, status: outcome.status, state: record.state, recorded: written },
      'webhook attempt',
    );
  }

  function launch(delivery: ClaimedDelivery): void {
    const running: Promise<void> = attempt(delivery)
      .catch((err: Error) => log.warn({ delivery: delivery.id, error: err.name }, 'webhook attempt not recorded; its lease will lapse'))
      .finally(() => {
        inFlight.delete(running);
        wake?.();
      });
    inFlight.add(running);
  }

  /** Claims what fits in the free slots; true when it filled them (more may be due at once). */
  async function claimAndLaunch(): Promise<boolean> {
    const capacity = MAX_IN_FLIGHT - inFlight.size;
    if (capacity <= 0) return false;
    const now = Date.now();
    const claimed = await claimDueDeliveries(db, {
      now,
      leaseUntil: now + settings.timeout_ms + LEASE_MARGIN_MS,
      leaseToken: randomBytes(16).toString('hex'),
      limit: capacity,
    });
    claimed.forEach(launch);
    return claimed.length === capacity;
  }

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  const loop = (async () => {
    while (!stopping) {
      let more = false;
      try {
        more = await claimAndLaunch();
      } catch (err) {
        log.warn({ error: (err as Error).name }, 'claiming webhook deliveries failed; retrying');
      }
      if (!more && !stopping) await pause(settings.poll_interval_ms);
      wake = null;
    }
  })();

  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake?.();
        await loop;
        await Promise.all(inFlight);
        await guard.close();
      })();
      return stopped;
    },
  };
}

/** Deliveries waiting for an attempt (due now or later), for the operator's metrics. */
export function waitingDeliveries(gateway: Pick<Gateway, 'db'>): Promise<number> {
  return countWaitingDeliveries(gateway.db);
}

export const webhookDeliveryTask: BackgroundTask = {
  name: 'webhook-deliveries',
  start: async (gateway) => startDeliveryWorker(gateway),
};
