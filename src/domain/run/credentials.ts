import { findConnection, liveConnections, type ConnectionRow } from '../../db/repos/connections.js';
import type { Provider, Task } from '../catalog/types.js';
import { runConnectLink } from '../consent/sessions.js';
import { reconnectUrl } from '../connections/oauth.js';
import { GatewayError, invalidInput } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { ORGANIZATION } from '../principals.js';
import type { RunRequest } from './request.js';
import type { Route } from './routes.js';

/** A route with the credential it will run with. */
export interface Plan extends Route {
  /** `anonymous`, `platform`, `credential` or `connection:<id>`. */
  identity: string;
  /** The secret for credential and platform plans; connections read theirs (refreshed) just before the call. */
  secret?: string;
  connection?: ConnectionRow;
  /** The customer's own credential (svc-credential or a connection): charged 0, never moved to a paid route. */
  customer: boolean;
  chargeMicros: number;
}

/**
 * A route with its credential, written out member by member: V8 builds `{...route, identity, ...}` (a spread
 * followed by members) about a hundred times slower, some 2 µs a plan, and every run plans each route.
 */
function planOf(route: Route, identity: string, customer: boolean, chargeMicros: number, secret?: string, connection?: ConnectionRow): Plan {
  return { task: route.task, provider: route.provider, input: route.input, identity, secret, connection, customer, chargeMicros };
}

/** Credential problems that only mean "this route cannot run": routing goes on to the next route. */
const ROUTE_UNUSABLE = new Set(['no_credential', 'connection_required']);

interface Context {
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>;
  organizationId: string;
  principal: string;
  request: RunRequest;
  /** Called before anything is written (a connect link's session): the run's rate-limit count comes first. */
  beforeWrite(): Promise<unknown>;
}

/** A connect link for the principal when one can be made (an OAuth2 provider with an app); else none. */
/**
 * A connect link for a run error, and what the detail tells the caller to do: follow it, or, where none
 * can be made, what must happen first (a detail never points at a member the answer lacks).
 */
async function connectLink(ctx: Context, provider: Provider, scopes: string[]): Promise<{ extras: Record<string, string>; next: string }> {
  await ctx.beforeWrite();
  const url = await runConnectLink(ctx.gateway, ctx.organizationId, ctx.principal, provider, scopes);
  if (url) return { extras: { connect_url: url }, next: 'open connect_url' };
  if (provider.auth.type !== 'oauth2') return { extras: {}, next: 'attach the account with POST /v1/connections' };
  return {
    extras: {},
    next: `no connect link can be made until the organization sets up its OAuth app for ${provider.name} (PUT /v1/providers/${provider.slug}/oauth-app)`,
  };
}

/** A chosen connection must be usable for the task: not needing re-auth, holding the task's scopes. */
async function usable(ctx: Context, route: Route, connection: ConnectionRow): Promise<Plan> {
  const provider = route.provider!;
  if (connection.status === 'needs_reauth') {
    await ctx.beforeWrite();
    const url = await reconnectUrl(ctx.gateway, connection);
    throw new GatewayError(
      'connection_invalid',
      `connection ${connection.id} to ${provider.name} was refused by the provider; the account must be connected again`,
      url ? { reconnect_url: url } : {},
    );
  }
  const held = connection.scopes;
  const missing = route.task.scopes.filter((scope) => !held.includes(scope));
  if (missing.length && provider.auth.type === 'oauth2') {
    const link = await connectLink(ctx, provider, [...held, ...route.task.scopes]);
    throw new GatewayError(
      'scope_required',
      `connection ${connection.id} lacks the scopes ${missing.join(', ')} that ${route.task.id} needs; to add them on the same account, ${link.next}`,
      link.extras,
    );
  }
  return planOf(route, `connection:${connection.id}`, true, 0, undefined, connection);
}

/**
 * A principal's connection to a provider: the one whose account id or label is `svc-account`, else the
 * default (or the only one). Several and none chosen: 409 connection_ambiguous with candidates; the
 * service never guesses. None at all: null.
 */
async function pickConnection(ctx: Context, principal: string, provider: Provider): Promise<ConnectionRow | null> {
  const live = await liveConnections(ctx.gateway.db, ctx.organizationId, principal, provider.slug);
  const { account } = ctx.request;
  const matching = account === undefined ? live : live.filter((c) => c.account_id === account || c.label === account);
  if (!matching.length) return null;
  const chosen = matching.length === 1 ? matching[0] : account === undefined ? matching.find((c) => c.is_default) : undefined;
  if (chosen) return chosen;
  throw new GatewayError(
    'connection_ambiguous',
    `${principal} has ${matching.length} connections to ${provider.name} and none is chosen; send svc-connection or make one the default`,
    { candidates: matching.map((c) => ({ id: c.id, label: c.label, account_id: c.account_id })) },
  );
}

function noSuchAccount(ctx: Context, provider: Provider): GatewayError {
  return new GatewayError('connection_not_found', `no connection to ${provider.name} for account ${ctx.request.account}`);
}

/** Rule 2: the connection `svc-connection` names, checked against the organization, principal and task. */
async function namedConnection(ctx: Context, requested: Task): Promise<ConnectionRow> {
  const id = ctx.request.connectionId!;
  const connection = await findConnection(ctx.gateway.db, ctx.organizationId, id);
  if (!connection) throw new GatewayError('connection_not_found', `no connection ${id} in this organization`);
  const owners = requested.kind === 'account' ? [ctx.principal] : [ctx.principal, ORGANIZATION];
  if (!owners.includes(connection.principal)) {
    // Whose it is stays unsaid: an error never names another end user.
    throw new GatewayError('connection_forbidden', `connection ${id} is not yours to use; name one of your own connections or leave svc-connection out`);
  }
  if (connection.status === 'revoked') {
    const provider = ctx.gateway.catalog.providers.get(connection.provider);
    const link = provider ? await connectLink(ctx, provider, requested.scopes) : { extras: {}, next: 'connect the account again' };
    throw new GatewayError('grant_required', `connection ${id} was revoked; to connect the account again, ${link.next}`, link.extras);
  }
  return connection;
}

/** The credential rules 1-5 of docs/run.md for one route. */
async function planFor(ctx: Context, requested: Task, route: Route, named: ConnectionRow | undefined): Promise<Plan> {
  const { task, provider } = route;
  if (task.kind === 'utility' || !provider || provider.auth.type === 'none') {
    return planOf(route, 'anonymous', false, task.price_micros);
  }
  if (ctx.request.credential !== undefined && provider.slug === requested.provider) {
    return planOf(route, 'credential', true, 0, ctx.request.credential);
  }
  if (named) return usable(ctx, route, named);
  if (task.kind === 'account') {
    const connection = await pickConnection(ctx, ctx.principal, provider);
    if (connection) return usable(ctx, route, connection);
    if (ctx.request.account !== undefined) throw noSuchAccount(ctx, provider);
    const link = await connectLink(ctx, provider, task.scopes);
    throw new GatewayError('grant_required', `${ctx.principal} has not connected ${provider.name}; ${link.next}`, link.extras);
  }
  const owners = ctx.principal === ORGANIZATION ? [ORGANIZATION] : [ctx.principal, ORGANIZATION];
  for (const owner of owners) {
    const connection = await pickConnection(ctx, owner, provider);
    if (connection) return usable(ctx, route, connection);
  }
  if (ctx.request.account !== undefined) throw noSuchAccount(ctx, provider);
  const platformSecret = provider.platformSecret?.();
  if (platformSecret && ctx.request.fallback === 'platform') {
    return planOf(route, 'platform', false, task.price_micros, platformSecret);
  }
  if (platformSecret) {
    throw new GatewayError(
      'no_credential',
      `no connection to ${provider.name} for ${ctx.principal}; send svc-fallback: platform to run on the platform credential at ${task.price_usd} USD`,
    );
  }
  throw new GatewayError('connection_required', `${provider.name} needs a credential: attach a connection or send svc-credential`);
}

/**
 * The credential of every route, in route order. A route that merely has no credential (402
 * no_credential, 403 connection_required) is passed over; when none is left its error is the answer.
 * Any other credential problem (re-auth, scopes, ambiguity, a forbidden connection) is answered at once:
 * the caller must fix it, and the service does not quietly run elsewhere.
 */
export async function planRoutes(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  organizationId: string,
  principal: string,
  requested: Task,
  routes: Route[],
  request: RunRequest,
  beforeWrite: () => Promise<unknown>,
): Promise<Plan[]> {
  const ctx: Context = { gateway, organizationId, principal, request, beforeWrite };
  let named: ConnectionRow | undefined;
  if (request.connectionId !== undefined) {
    named = await namedConnection(ctx, requested);
    const provider = named.provider;
    routes = routes.filter((route) => route.task.provider === provider);
    if (!routes.length) {
      throw invalidInput(`connection ${named.id} is for ${provider}, which cannot run ${requested.id}`, [
        { name: 'headers.svc-connection', reason: `a ${provider} connection` },
      ]);
    }
  }
  const plans: Plan[] = [];
  let unusable: GatewayError | undefined;
  for (const route of routes) {
    try {
      plans.push(await planFor(ctx, requested, route, named));
    } catch (err) {
      if (!(err instanceof GatewayError) || !ROUTE_UNUSABLE.has(err.code)) throw err;
      unusable ??= err;
    }
  }
  if (!plans.length) throw unusable!;
  return plans;
}
