import type { Boom } from '@hapi/boom';
import type { Request, ResponseObject, Server } from '@hapi/hapi';
import type { RateLimitClass } from '../config/schema.js';
import type { Gateway } from '../domain/gateway.js';
import { PRINCIPAL_PATTERN } from '../domain/principals.js';
import { consumeRateLimit, consumeRunLimits, rateLimitHeaders, type RateLimitState } from '../domain/rate-limits.js';

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

/**
 * The one place rate limits apply: right after authentication, before validation, so every request of a
 * limited route counts whatever it answers (a 400, a miss, a grant_required). Every answer of a limited
 * route, success or error, carries the RateLimit-Policy and RateLimit headers; a 429 carries them from its error.
 */
export function registerRateLimits(server: Server, gateway: Gateway): void {
  server.ext('onPostAuth', async (request, h) => {
    const limited = request.route.settings.plugins?.rateLimit;
    const caller = request.auth.credentials?.caller;
    if (!limited || !caller) return h.continue;
    request.app.rateLimit =
      limited.class === 'run'
        ? await consumeRunLimits(gateway, caller, limited.principal(request))
        : await consumeRateLimit(gateway, limited.class, caller);
    return h.continue;
  });
  server.ext('onPreResponse', (request, h) => {
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
