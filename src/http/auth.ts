import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Role } from '../domain/api-keys.js';
import { authenticate, hasRole, type Caller } from '../domain/callers.js';
import { GatewayError } from '../domain/errors.js';
import type { Gateway } from '../domain/gateway.js';
import { headerText } from './headers.js';
import type { TakeTurn } from './fair-share.js';
import { refuseSpentBeforeBody } from './rate-limits.js';

/** Per-route access: the least key role needed, and whether principal-bound tokens may call it. */
export interface RouteAccess {
  role?: Role;
  userTokens?: boolean;
}

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    gateway?: RouteAccess;
  }
  interface AuthCredentials {
    caller?: Caller;
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined for any other header. */
export function bearerToken(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}

/** Every 401 of the strategy names the scheme to use (RFC 6750), so MCP clients and other tools know how to sign in. */
export const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

async function authenticateBearer(gateway: Gateway, header: string | undefined, origin: string | undefined): Promise<Caller> {
  const token = bearerToken(header);
  if (!token) throw new GatewayError('unauthenticated', 'send Authorization: Bearer <key>', {}, CHALLENGE);
  try {
    return await authenticate(gateway, token, origin);
  } catch (error) {
    if (error instanceof GatewayError && error.status === 401) throw new GatewayError(error.code, error.message, error.extras, { ...error.headers, ...CHALLENGE });
    throw error;
  }
}

function checkAccess(caller: Caller, access: RouteAccess): void {
  if (caller.kind === 'user_token' && !access.userTokens) {
    throw new GatewayError('role_forbidden', 'a principal-bound token cannot call this operation; use an organization key');
  }
  if (access.role && !hasRole(caller, access.role)) {
    throw new GatewayError('role_forbidden', `this operation needs an ${access.role} or owner key`);
  }
}

/**
 * The one auth strategy: bearer API keys and principal-bound tokens, organization state, origin and role; then
 * the request's rate limit and its turn in the organization's fair share, both before its body is read.
 */
export function registerAuth(server: Server, gateway: Gateway, takeTurn: TakeTurn): void {
  server.auth.scheme('gateway-bearer', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const caller = await authenticateBearer(gateway, headerText(request.headers, 'authorization'), headerText(request.headers, 'origin'));
      checkAccess(caller, request.route.settings.plugins?.gateway ?? {});
      refuseSpentBeforeBody(request, gateway, caller);
      await takeTurn(request, caller);
      return h.authenticated({ credentials: { caller } });
    },
  }));
  server.auth.strategy('gateway', 'gateway-bearer');
  server.auth.default('gateway');
}

/** The authenticated caller of a request on a route behind the gateway strategy. */
export function callerOf(request: Pick<Request, 'auth'>): Caller {
  return request.auth.credentials.caller!;
}
