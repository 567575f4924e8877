import type { RateLimitClass } from '../config/schema.js';
import { countHits, deleteWindowsBefore } from '../db/repos/rate-limits.js';
import type { Caller } from './callers.js';
import { GatewayError } from './errors.js';
import type { Gateway } from './gateway.js';

const WINDOW_MS = 60_000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** IETF RateLimit-Policy / RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(name: RateLimitClass, state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Policy': `"${name}";q=${state.limit};w=${WINDOW_MS / 1000}`,
    RateLimit: `"${name}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/**
 * Counts one request of a class against both the organization's and the calling key's or token's
 * per-minute budget (config rate_limits.<class>). Counters live in the database so every instance
 * shares them. Over budget: 429 rate_limited with Retry-After and the RateLimit headers.
 */
export async function consumeRateLimit(gateway: Gateway, name: RateLimitClass, caller: Caller, now = Date.now()): Promise<RateLimitState> {
  const limit = gateway.config.rate_limits[name];
  const windowStart = now - (now % WINDOW_MS);
  const window = Math.floor(windowStart / WINDOW_MS);
  const [orgHits, credentialHits] = await countHits(
    gateway.db,
    [`${name}:org:${caller.organization.id}:${window}`, `${name}:cred:${caller.credentialId}:${window}`],
    windowStart,
  );
  if (window % 10 === 0 && orgHits === 1) await deleteWindowsBefore(gateway.db, windowStart - WINDOW_MS);
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
  const state = { limit, remaining: Math.max(0, limit - Math.max(orgHits, credentialHits)), resetSeconds };
  if (Math.max(orgHits, credentialHits) > limit) {
    throw new GatewayError('rate_limited', `more than ${limit} ${name} requests a minute; retry in ${resetSeconds} s`, {}, {
      'Retry-After': String(resetSeconds),
      ...rateLimitHeaders(name, state),
    });
  }
  return state;
}
