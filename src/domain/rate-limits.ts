import type { RateLimitClass } from '../config/schema.js';
import type { CountedStart } from '../db/repos/calls.js';
import { countHits, deleteWindowsBefore, type Counting } from '../db/repos/rate-limits.js';
import type { Caller } from './callers.js';
import { GatewayError } from './errors.js';
import type { Gateway } from './gateway.js';
import { isUserPrincipal, PRINCIPAL_PATTERN } from './principals.js';

const WINDOW_MS = 60_000;

/** Where a request stands against the budget with the least left; `policy` names it. */
export interface RateLimitState {
  policy: string;
  limit: number;
  remaining: number;
  resetSeconds: number;
  /** Every budget the request counted against, for RateLimit-Policy. */
  policies: Array<{ policy: string; limit: number }>;
}

/** One per-minute budget: a counter shared by every instance (the bucket), its allowance and the policy name it is reported under. */
interface Budget {
  policy: string;
  bucket: string;
  limit: number;
}

/** IETF RateLimit-Policy / RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const window = WINDOW_MS / 1000;
  return {
    'RateLimit-Policy': state.policies.map(({ policy, limit }) => `"${policy}";q=${limit};w=${window}`).join(', '),
    RateLimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/** The organization's and the calling key's or token's budget of a class (config rate_limits.<class>). */
function callerBudgets(gateway: Pick<Gateway, 'config'>, name: RateLimitClass, caller: Caller): Budget[] {
  const limit = gateway.config.rate_limits[name];
  return [
    { policy: name, bucket: `${name}:org:${caller.organization.id}`, limit },
    { policy: name, bucket: `${name}:cred:${caller.credentialId}`, limit },
  ];
}

/**
 * The budgets each process has seen run out in the current window (bucket -> the window's end): counters only
 * grow within a window, so a budget spent stays spent until the window ends, and a request against it can be
 * refused before anything of it is read. Internal safety cap on its size, not a product limit.
 */
const spentBudgets = new WeakMap<Pick<Gateway, 'db'>, Map<string, number>>();
const SPENT_MEMORY = 10_000;

function spentOf(gateway: Pick<Gateway, 'db'>): Map<string, number> {
  let spent = spentBudgets.get(gateway);
  if (!spent) spentBudgets.set(gateway, (spent = new Map()));
  return spent;
}

function policiesOf(budgets: Budget[]) {
  return [...new Map(budgets.map((budget) => [budget.policy, { policy: budget.policy, limit: budget.limit }])).values()];
}

function refused(state: RateLimitState): GatewayError {
  return new GatewayError('rate_limited', `more than ${state.limit} ${state.policy} requests a minute; retry in ${state.resetSeconds} s`, {}, {
    'Retry-After': String(state.resetSeconds),
    ...rateLimitHeaders(state),
  });
}

const windowOf = (now: number) => now - (now % WINDOW_MS);
const secondsLeft = (now: number) => Math.max(1, Math.ceil((windowOf(now) + WINDOW_MS - now) / 1000));

/** The counters of `budgets` in the window of `now`. */
function countingOf(budgets: Budget[], now: number): Counting {
  const windowStart = windowOf(now);
  const window = Math.floor(windowStart / WINDOW_MS);
  return { buckets: budgets.map((budget) => `${budget.bucket}:${window}`), windowStart };
}

/**
 * Counts one request against every budget given, in one statement. Over any of them: 429 rate_limited
 * with Retry-After and the RateLimit headers of the budget that ran out.
 */
async function consume(gateway: Pick<Gateway, 'db'>, budgets: Budget[], now: number): Promise<RateLimitState> {
  return judge(gateway, budgets, await countHits(gateway.db, countingOf(budgets, now)), now);
}

/** Where a request stands once counted (`hits`: each budget's total, this request included); 429 when over one. */
async function judge(gateway: Pick<Gateway, 'db'>, budgets: Budget[], hits: number[], now: number): Promise<RateLimitState> {
  const windowStart = windowOf(now);
  if ((windowStart / WINDOW_MS) % 10 === 0 && hits[0] === 1) await deleteWindowsBefore(gateway.db, windowStart - WINDOW_MS);
  let tightest = 0;
  budgets.forEach((budget, i) => {
    if (budget.limit - hits[i] < budgets[tightest].limit - hits[tightest]) tightest = i;
  });
  const { policy, limit } = budgets[tightest];
  const state = { policy, limit, remaining: Math.max(0, limit - hits[tightest]), resetSeconds: secondsLeft(now), policies: policiesOf(budgets) };
  if (hits[tightest] > limit) {
    const spent = spentOf(gateway);
    if (spent.size >= SPENT_MEMORY) spent.clear();
    budgets.forEach((budget, i) => hits[i] > budget.limit && spent.set(budget.bucket, windowStart + WINDOW_MS));
    throw refused(state);
  }
  return state;
}

/** 429 rate_limited, without counting, when one of the budgets is known spent for the rest of this window. */
function refuseSpent(gateway: Pick<Gateway, 'db'>, budgets: Budget[], now: number): void {
  const spent = spentBudgets.get(gateway);
  const out = spent && budgets.find((budget) => (spent.get(budget.bucket) ?? 0) > now);
  if (out) throw refused({ policy: out.policy, limit: out.limit, remaining: 0, resetSeconds: secondsLeft(now), policies: policiesOf(budgets) });
}

/**
 * Counts one request of a class against both the organization's and the calling key's or token's
 * per-minute budget (config rate_limits.<class>). Counters live in the database so every instance
 * shares them.
 */
export function consumeRateLimit(gateway: Pick<Gateway, 'config' | 'db'>, name: RateLimitClass, caller: Caller, now = Date.now()): Promise<RateLimitState> {
  return consume(gateway, callerBudgets(gateway, name, caller), now);
}

/**
 * The whole budget of one run, whatever it will answer: the organization's and the key's or token's
 * `run` budget, and for a user principal (`user:<id>`) its own budget across every key and token of the
 * organization (rate_limits.per_principal.run), so one end user cannot use up the organization's runs.
 */
export function consumeRunLimits(gateway: Pick<Gateway, 'config' | 'db'>, caller: Caller, principal?: string, now = Date.now()): Promise<RateLimitState> {
  return consume(gateway, runBudgets(gateway, caller, principal), now);
}

/** The counters of countingOf with each one's allowance, member by member (a spread followed by a member costs V8 about 0.5 µs). */
function countedStartOf(budgets: Budget[], now: number): CountedStart {
  const { buckets, windowStart } = countingOf(budgets, now);
  return { buckets, windowStart, limits: budgets.map((budget) => budget.limit) };
}

/**
 * A run's count against its whole budget (consumeRunLimits's budgets), made once per request. A run that gets as
 * far as its call counts in the same statement that writes the call's pending row (`withCall`), which is written
 * only within budget; a run that ends sooner, or writes anything else first (a miss, a connect link, an approval,
 * an idempotency claim), counts on its own (`count`) before that, or as its answer leaves.
 */
export interface RunCount {
  /** The counters to count with the call, each bucket with its allowance; undefined once counted. */
  pending(): CountedStart | undefined;
  /** Where the request stands after the statement that counted `pending()`'s counters returned these totals; 429 when over. */
  counted(hits: number[]): Promise<RateLimitState>;
  /** Counts now unless counted already: where the request stands; 429 rate_limited when over a budget. */
  count(): Promise<RateLimitState>;
}

export function runCount(gateway: Pick<Gateway, 'config' | 'db'>, caller: Caller, principal?: string, now = Date.now()): RunCount {
  const budgets = runBudgets(gateway, caller, principal);
  let outcome: Promise<RateLimitState> | undefined;
  return {
    pending: () => (outcome ? undefined : countedStartOf(budgets, now)),
    counted: (hits) => (outcome = judge(gateway, budgets, hits, now)),
    count: () => (outcome ??= consume(gateway, budgets, now)),
  };
}

function runBudgets(gateway: Pick<Gateway, 'config'>, caller: Caller, principal: string | undefined): Budget[] {
  const budgets = callerBudgets(gateway, 'run', caller);
  if (principal !== undefined && isUserPrincipal(principal) && PRINCIPAL_PATTERN.test(principal)) {
    budgets.push({
      policy: 'run-principal',
      bucket: `run:principal:${caller.organization.id}:${principal}`,
      limit: gateway.config.rate_limits.per_principal.run,
    });
  }
  return budgets;
}

/**
 * Refuses (429 rate_limited, counting nothing) a request of a class whose budget this process has already
 * seen spent in the current window: the organization's, the key's or token's, or for runs the principal's when
 * it is known before the body is read. What a spent budget's requests cost stops at their headers.
 */
export function refuseSpentBudget(gateway: Pick<Gateway, 'config' | 'db'>, name: RateLimitClass, caller: Caller, principal?: string, now = Date.now()): void {
  refuseSpent(gateway, name === 'run' ? runBudgets(gateway, caller, principal) : callerBudgets(gateway, name, caller), now);
}
