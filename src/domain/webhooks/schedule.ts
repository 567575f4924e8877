/**
 * When a failed delivery is tried again. Steps are multiples of webhooks.retry_base_ms; with the
 * default base of 5000 ms they give the schedule common in the field (Svix, Standard Webhooks):
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h; retries past the table repeat its last step. Each delay gets
 * +/-10 % jitter so deliveries that failed together do not return together.
 */
const RETRY_STEPS = [1, 60, 360, 1440, 3600, 7200];

const JITTER = 0.1;

/** A receiver's Retry-After is honoured up to this long; beyond it the receiver is asking for more than a delivery can wait. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Delay before the next attempt, after `failedAttempts` (>= 1) failed ones. */
export function retryDelay(failedAttempts: number, baseMs: number, random = Math.random): number {
  const step = RETRY_STEPS[Math.min(failedAttempts, RETRY_STEPS.length) - 1];
  return Math.round(step * baseMs * (1 - JITTER + 2 * JITTER * random()));
}

/** Milliseconds a Retry-After header asks to wait (delay-seconds or an HTTP date), capped; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  // delay-seconds, or an HTTP date (which always names a day and a month in letters).
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : /[a-z]/i.test(trimmed) ? Date.parse(trimmed) - now : NaN;
  if (Number.isNaN(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
