import type { Boom } from '@hapi/boom';
import type { Request, ResponseObject, Server } from '@hapi/hapi';
import type { RateLimitClass } from '../config/schema.js';
import type { Gateway } from '../domain/gateway.js';
import { problemReply, toGatewayError } from './errors.js';
import { PRINCIPAL_PATTERN } from '../domain/principals.js';
import type { Caller } from '../domain/callers.js';
import { consumeRateLimit, consumeRunLimits, rateLimitHeaders, refuseSpentBudget, runCount, type RateLimitState, type RunCount } from '../domain/rate-limits.js';

/**
 * A route's rate-limit class, declared in its `plugins.rateLimit` settings. Runs also name how their
 * principal is found, since each user principal has its own run budget.
 */
export type RouteRateLimit =
  | { class: 'run'; principal: (request: Request) => string | undefined }
  | { class: Exclude<RateLimitClass, 'run'> };

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    rateLimit?: RouteRateLimit;
  }
  interface RequestApplicationState {
    rateLimit?: RateLimitState;
    rateLimitCounted?: boolean;
    /** A run's count, made by the run with its call row, or here as the answer leaves (runCountOf). */
    runCount?: RunCount;
  }
}

/**
 * The principal a run acts as, read before the request is validated: a token's own, else the
 * well-formed one named by svc-principal or receipt_options.principal. A malformed name counts as none.
 */
export function namedRunPrincipal(request: Request): string | undefined {
  const caller = request.auth.credentials.caller!;
  if (caller.kind === 'user_token') return caller.principal!;
  const payload = request.payload as { receipt_options?: { principal?: unknown } } | null;
  const options = payload !== null && typeof payload === 'object' ? payload.receipt_options : undefined;
  const named = request.headers['svc-principal'] ?? (options !== null && typeof options === 'object' ? options.principal : undefined);
  return typeof named === 'string' && PRINCIPAL_PATTERN.test(named) ? named : undefined;
}

/** The principal a run acts for as far as its headers and credential tell, before its body is read. */
function principalBeforeBody(request: Request, caller: Caller): string | undefined {
  if (caller.kind === 'user_token') return caller.principal!;
  const named = request.headers['svc-principal'];
  return typeof named === 'string' && PRINCIPAL_PATTERN.test(named) ? named : undefined;
}

/**
 * Called as soon as the caller is authenticated, before hapi reads the body: a request of a limited route
 * whose budget this process already saw spent this window is refused at once (429, counting nothing), so a
 * caller past its budget cannot make the gateway read and parse bodies of up to limits.max_body_bytes.
 */
export function refuseSpentBeforeBody(request: Request, gateway: Gateway, caller: Caller): void {
  const limited = request.route.settings.plugins?.rateLimit;
  if (limited) refuseSpentBudget(gateway, limited.class, caller, principalBeforeBody(request, caller));
}

/** The run's count of a run request, which the handler hands to the run (set right after authentication). */
export function runCountOf(request: Pick<Request, 'app'>): RunCount {
  return request.app.runCount!;
}

async function countRequest(request: Request, gateway: Gateway): Promise<void> {
  const limited = request.route.settings.plugins?.rateLimit;
  const caller = request.auth.credentials?.caller;
  if (!limited || !caller || request.app.rateLimitCounted) return;
  request.app.rateLimitCounted = true;
  request.app.rateLimit =
    limited.class === 'run'
      ? await consumeRunLimits(gateway, caller, limited.principal(request))
      : await consumeRateLimit(gateway, limited.class, caller);
}

/**
 * The one place rate limits apply: right after authentication, before validation, so every request of a
 * limited route counts whatever it answers (a 400, a miss, a grant_required). A run's count is made by the
 * run itself in the statement that writes its call (one wait instead of two), or before anything else it
 * writes; a run that answers before either counts here as its answer leaves, and an over-budget one is
 * answered 429 instead, as if counted first. A request whose body hapi could not read (malformed JSON, 413)
 * never reaches the first step, so it counts as its answer leaves too. Every answer of a limited route,
 * success or error, carries the RateLimit-Policy and RateLimit headers (a 429 carries them from its error).
 * Register after the error handling, whose problem+json answers this decorates.
 */
export function registerRateLimits(server: Server, gateway: Gateway): void {
  server.ext('onPostAuth', async (request, h) => {
    const limited = request.route.settings.plugins?.rateLimit;
    if (limited?.class === 'run') {
      request.app.rateLimitCounted = true;
      request.app.runCount = runCount(gateway, request.auth.credentials.caller!, limited.principal(request));
    } else {
      await countRequest(request, gateway);
    }
    return h.continue;
  });
  server.ext('onPreResponse', async (request, h) => {
    try {
      if (request.app.runCount) request.app.rateLimit = await request.app.runCount.count();
      else await countRequest(request, gateway);
    } catch (error) {
      return problemReply(h, toGatewayError(error), gateway.config.server.public_url);
    }
    const state = request.app.rateLimit;
    if (!state) return h.continue;
    const response = request.response as ResponseObject | Boom;
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) {
      if ('isBoom' in response && response.isBoom) response.output.headers[name] = value;
      else (response as ResponseObject).header(name, value);
    }
    return h.continue;
  });
}
