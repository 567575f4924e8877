import {
  deleteConnectSessionsEndedBefore,
  findConnectSession,
  insertConnectSession,
  openConnectSessionsFor,
  pageConnectSessions,
  type ConnectSessionRow,
  type ConnectSessionStatusFilter,
} from '../../db/repos/connect-sessions.js';
import type { Provider } from '../catalog/types.js';
import { GatewayError, invalidInput } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { newId } from '../ids.js';
import { recordPrincipalUse } from '../principal-directory.js';
import { resolveOAuthClient } from '../oauth-apps.js';
import { pageQuery, toPage, type Page } from '../paging.js';
import { checkRedirectUri } from '../redirect-uris.js';
import { hashSecret, newSecret } from '../secrets.js';
import { isOAuth2, type OAuth2Auth } from '../../providers/oauth2.js';
import { isoTime } from '../time.js';

export interface NewConnectSession {
  provider: string;
  principal: string;
  scopes?: string[];
  redirect_uri?: string;
}

export interface ConnectSessionCreated {
  session_id: string;
  url: string;
  expires_at: string;
}

export type ConnectSessionStatus = 'pending' | 'completed' | 'expired';

/** The ConnectSession record; `connection_id` only once completed. */
export interface ConnectSessionView {
  id: string;
  status: ConnectSessionStatus;
  principal: string;
  provider: string;
  scopes: string[];
  redirect_uri: string | null;
  connection_id?: string;
  created_at: string;
  expires_at: string;
}

export const CONNECT_LINK_PREFIX = 'cs_';

export function sessionStatus(row: ConnectSessionRow, now = Date.now()): ConnectSessionStatus {
  if (row.status === 'completed') return 'completed';
  return row.expires_at <= now ? 'expired' : 'pending';
}

export function presentConnectSession(row: ConnectSessionRow, now = Date.now()): ConnectSessionView {
  return {
    id: row.id,
    status: sessionStatus(row, now),
    principal: row.principal,
    provider: row.provider,
    scopes: row.scopes,
    redirect_uri: row.redirect_uri,
    ...(row.connection_id ? { connection_id: row.connection_id } : {}),
    created_at: isoTime(row.created_at),
    expires_at: isoTime(row.expires_at),
  };
}

/** An OAuth2 provider of the catalog, or invalid_input naming `provider`. */
export function oauthProvider(gateway: Pick<Gateway, 'catalog'>, slug: string): Provider & { auth: OAuth2Auth } {
  const provider = gateway.catalog.providers.get(slug);
  if (!provider) throw invalidInput(`provider ${slug} is not in the catalog`, [{ name: 'provider', reason: 'unknown provider' }]);
  if (!isOAuth2(provider)) {
    throw invalidInput(`provider ${slug} does not use OAuth2; attach its credential with POST /v1/connections`, [
      { name: 'provider', reason: 'not an OAuth2 provider' },
    ]);
  }
  return provider;
}

/** Every scope the catalog names for a provider: its default scopes and those of its tasks. */
export function catalogScopes(gateway: Pick<Gateway, 'catalog'>, provider: Provider & { auth: OAuth2Auth }): Set<string> {
  const names = new Set(provider.auth.scopes);
  for (const task of gateway.catalog.tasks.values()) if (task.provider === provider.slug) task.scopes.forEach((s) => names.add(s));
  return names;
}

function checkScopes(gateway: Pick<Gateway, 'catalog'>, provider: Provider & { auth: OAuth2Auth }, requested: string[]): void {
  const known = catalogScopes(gateway, provider);
  const unknown = requested.filter((scope) => !known.has(scope));
  if (unknown.length) {
    throw invalidInput(
      `scopes ${unknown.join(', ')} are not scopes of provider ${provider.slug}`,
      unknown.map((scope) => ({ name: 'scopes', reason: `unknown scope ${scope}` })),
    );
  }
}

/**
 * The provider and the scopes a new session asks for, its redirect_uri checked. The OAuth client is
 * resolved now so a missing app is 409 oauth_app_required here rather than on the end user's screen.
 */
async function sessionScopes(gateway: Pick<Gateway, 'db' | 'keyring' | 'catalog'>, organizationId: string, request: NewConnectSession) {
  const provider = oauthProvider(gateway, request.provider);
  const requested = request.scopes ?? [];
  checkScopes(gateway, provider, requested);
  if (request.redirect_uri !== undefined) await checkRedirectUri(gateway, organizationId, request.redirect_uri);
  const client = await resolveOAuthClient(gateway, organizationId, provider.slug);
  // The organization app's scopes (else the provider's defaults) are always asked: the account probe relies on them.
  return { provider, scopes: [...new Set([...(client.scopes.length ? client.scopes : provider.auth.scopes), ...requested])] };
}

function linkUrl(gateway: Pick<Gateway, 'config'>, secret: string): string {
  return `${gateway.config.server.public_url}/v1/hosted/connect/${secret}`;
}

/**
 * The secret of a link handed out in a run's error, derived from the session id with the service's
 * signing key: the link can be given again while only its hash is stored.
 */
function derivedLinkSecret(gateway: Pick<Gateway, 'keyring'>, sessionId: string): string {
  return `${CONNECT_LINK_PREFIX}${gateway.keyring.sign(`connect-link:${sessionId}`)}`;
}

async function insertSession(
  gateway: Pick<Gateway, 'config' | 'db'>,
  organizationId: string,
  fields: { id: string; principal: string; provider: string; scopes: string[]; redirect_uri: string | null; secret: string },
  now: number,
): Promise<ConnectSessionCreated> {
  const expiresAt = now + gateway.config.connect.session_ttl_s * 1000;
  await recordPrincipalUse(gateway.db, organizationId, fields.principal, now);
  await insertConnectSession(gateway.db, {
    id: fields.id,
    organization_id: organizationId,
    principal: fields.principal,
    provider: fields.provider,
    scopes: fields.scopes,
    redirect_uri: fields.redirect_uri,
    secret_hash: hashSecret(fields.secret),
    expires_at: expiresAt,
    created_at: now,
  });
  return { session_id: fields.id, url: linkUrl(gateway, fields.secret), expires_at: isoTime(expiresAt) };
}

/** Creates a pending connect session and its single-use link (POST /v1/connect/sessions). Only the hash of the link's secret is stored. */
export async function createConnectSession(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  organizationId: string,
  request: NewConnectSession,
  now = Date.now(),
): Promise<ConnectSessionCreated> {
  const { provider, scopes } = await sessionScopes(gateway, organizationId, request);
  const id = newId('cs', now);
  return insertSession(
    gateway,
    organizationId,
    { id, principal: request.principal, provider: provider.slug, scopes, redirect_uri: request.redirect_uri ?? null, secret: newSecret(CONNECT_LINK_PREFIX) },
    now,
  );
}

function sameScopes(held: string[], wanted: string[]): boolean {
  return held.length === wanted.length && wanted.every((scope) => held.includes(scope));
}

/**
 * The principal's open session for the same provider and scopes while it has at least half its lifetime
 * left, else a new one, so repeated failing runs do not make a session each.
 */
async function reusableSession(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  organizationId: string,
  request: NewConnectSession,
  now: number,
): Promise<ConnectSessionCreated> {
  const { provider, scopes } = await sessionScopes(gateway, organizationId, request);
  const halfLife = (gateway.config.connect.session_ttl_s * 1000) / 2;
  const open = await openConnectSessionsFor(gateway.db, organizationId, request.principal, provider.slug, now + halfLife);
  for (const session of open) {
    const secret = derivedLinkSecret(gateway, session.id);
    // Sessions made by POST /v1/connect/sessions have random secrets and are never handed out again.
    if (sameScopes(session.scopes, scopes) && session.secret_hash === hashSecret(secret)) {
      return { session_id: session.id, url: linkUrl(gateway, secret), expires_at: isoTime(session.expires_at) };
    }
  }
  const id = newId('cs', now);
  return insertSession(
    gateway,
    organizationId,
    { id, principal: request.principal, provider: provider.slug, scopes, redirect_uri: null, secret: derivedLinkSecret(gateway, id) },
    now,
  );
}

/** Look-ups in progress per database: concurrent failing runs of one principal wait for one session instead of each making one. */
const sessionsInFlight = new WeakMap<Gateway['db'], Map<string, Promise<ConnectSessionCreated>>>();

function singleFlight(gateway: Pick<Gateway, 'db'>, key: string, make: () => Promise<ConnectSessionCreated>): Promise<ConnectSessionCreated> {
  let inFlight = sessionsInFlight.get(gateway.db);
  if (!inFlight) sessionsInFlight.set(gateway.db, (inFlight = new Map()));
  const running = inFlight.get(key);
  if (running) return running;
  const made = make().finally(() => inFlight.delete(key));
  inFlight.set(key, made);
  return made;
}

/**
 * The connect link a run's error hands out (grant_required, scope_required, connection_invalid) for the
 * principal, provider and the scopes the catalog knows; undefined when none can be made (not an OAuth2
 * provider, no OAuth app).
 */
export async function runConnectLink(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  organizationId: string,
  principal: string,
  provider: Provider,
  scopes: string[],
  now = Date.now(),
): Promise<string | undefined> {
  if (!isOAuth2(provider)) return undefined;
  const known = catalogScopes(gateway, provider);
  try {
    const wanted = [...new Set(scopes)].filter((scope) => known.has(scope));
    const key = JSON.stringify([organizationId, principal, provider.slug, [...wanted].sort()]);
    return (await singleFlight(gateway, key, () => reusableSession(gateway, organizationId, { provider: provider.slug, principal, scopes: wanted }, now))).url;
  } catch (err) {
    if (err instanceof GatewayError) return undefined;
    throw err;
  }
}

/** Connect sessions kept after they ended (completed or expired), for the record: 7 days. */
const ENDED_SESSION_RETENTION_MS = 7 * 86_400_000;

/** Deletes the sessions that completed or expired more than 7 days ago; returns how many. */
export function deleteEndedConnectSessions(gateway: Pick<Gateway, 'db'>, now = Date.now()): Promise<number> {
  return deleteConnectSessionsEndedBefore(gateway.db, now - ENDED_SESSION_RETENTION_MS);
}

/** One session of the organization; `principal` set limits it to that principal's (tokens see only their own). */
export async function getConnectSession(gateway: Pick<Gateway, 'db'>, organizationId: string, id: string, principal?: string): Promise<ConnectSessionView> {
  const row = await findConnectSession(gateway.db, organizationId, id);
  if (!row || (principal !== undefined && row.principal !== principal)) {
    throw new GatewayError('connect_session_not_found', `no connect session ${id} in this organization`);
  }
  return presentConnectSession(row);
}

export async function listConnectSessions(
  gateway: Pick<Gateway, 'db'>,
  organizationId: string,
  filters: { cursor?: string; principal?: string; status?: ConnectSessionStatusFilter },
  now = Date.now(),
): Promise<Page<ConnectSessionView>> {
  const rows = await pageConnectSessions(gateway.db, organizationId, filters, now, pageQuery(filters.cursor));
  const page = toPage(rows, (row) => row.id);
  return { items: page.items.map((row) => presentConnectSession(row, now)), next_cursor: page.next_cursor };
}
