import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Role } from '../db/models/index.js';
import { authenticate, hasRole, type Caller } from '../domain/callers.js';
import { GatewayError } from '../domain/errors.js';
import type { Gateway } from '../domain/gateway.js';

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

function checkAccess(caller: Caller, access: RouteAccess): void {
  if (caller.kind === 'user_token' && !access.userTokens) {
    throw new GatewayError('role_forbidden', 'a principal-bound token cannot call this operation; use an organization key');
  }
  if (access.role && !hasRole(caller, access.role)) {
    throw new GatewayError('role_forbidden', `this operation needs an ${access.role} or owner key`);
  }
}

/** The one auth strategy: bearer API keys and principal-bound tokens, organization state, origin and role. */
export function registerAuth(server: Server, gateway: Gateway): void {
  server.auth.scheme('gateway-bearer', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const header = request.headers.authorization as string | undefined;
      const match = header ? BEARER.exec(header) : null;
      if (!match) throw new GatewayError('unauthenticated', 'send Authorization: Bearer <key>');
      const caller = await authenticate(gateway.db, match[1], request.headers.origin as string | undefined);
      checkAccess(caller, request.route.settings.plugins?.gateway ?? {});
      return h.authenticated({ credentials: { caller } });
    },
  }));
  server.auth.strategy('gateway', 'gateway-bearer');
  server.auth.default('gateway');
}

/** The authenticated caller of a request on a route behind the gateway strategy. */
export function callerOf(request: Request): Caller {
  return request.auth.credentials.caller!;
}
