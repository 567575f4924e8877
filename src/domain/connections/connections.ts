import type { Executor, Transaction } from '../../db/database.js';
import { lastCallOfConnection } from '../../db/repos/calls.js';
import {
  changeConnectionStatus,
  findConnection,
  findConnectionByAccount,
  findConnectionById,
  insertConnection,
  liveConnections,
  pageConnections,
  reactivateConnection,
  setConnectionLabel,
  setDefaultConnection,
} from '../../db/repos/connections.js';
import { grantsOfConnection, insertGrant, revokeGrantsOfConnection, updateActiveGrantScopes } from '../../db/repos/grants.js';
import type { Caller } from '../callers.js';
import type { Provider } from '../catalog/types.js';
import { GatewayError, invalidInput } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { newId } from '../ids.js';
import { pageQuery, toPage } from '../paging.js';
import { actingPrincipal, listPrincipal } from '../principals.js';
import { recordPrincipalUse } from '../principal-directory.js';
import { emitConnectionEvent, type ConnectionEvent } from '../webhooks/events.js';
import { sealCredential, secretOf, type StoredCredential } from './credentials.js';
import { presentConnection, presentConnectionDetail, type Connection, type ConnectionDetail } from './present.js';
import { revokeAtProvider } from './oauth.js';
import { probeCredential } from './probe.js';

/** POST /v1/connections body (docs/connections.md); `expires_at` of OAuth tokens is an ISO 8601 time. */
export interface NewConnection {
  provider: string;
  principal?: string;
  credential: string | { access_token: string; refresh_token?: string; expires_at?: string; scopes?: string[] };
  label?: string;
}

export interface ConnectionChange {
  label?: string | null;
  default?: true;
}

/** A provider account to attach to a principal: from POST /v1/connections or a completed consent. */
export interface ConsentedConnection {
  organizationId: string;
  principal: string;
  provider: string;
  /** The provider's stable account id; the same account for the same principal restores the same connection. */
  accountId: string | null;
  label: string | null;
  credential: StoredCredential;
  scopes: string[];
}

function provided(gateway: Pick<Gateway, 'catalog'>, slug: string) {
  const provider = gateway.catalog.providers.get(slug);
  if (!provider) throw invalidInput(`provider ${slug} is not in the catalog`, [{ name: 'provider', reason: 'unknown provider' }]);
  if (provider.auth.type === 'none') {
    throw invalidInput(`provider ${slug} needs no credential`, [{ name: 'provider', reason: 'takes no credential' }]);
  }
  return provider;
}

/** What a header value may carry (RFC 9110 field-value): tab, visible ASCII, space, and the Latin-1 bytes 0x80-0xFF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A secret the provider takes in a header must be sendable there: a control character or a character beyond
 * Latin-1 is the caller's mistake (400 naming the field), not the provider being down.
 */
function checkSendable(secret: string, inHeader: boolean, field: string): void {
  if (inHeader && !HEADER_VALUE.test(secret)) {
    throw invalidInput(`${field} cannot be sent in an HTTP header: it holds a control character or one beyond Latin-1`, [
      { name: field, reason: 'must hold only tab, printable ASCII and Latin-1 characters' },
    ]);
  }
}

function storedCredential(provider: Provider, credential: NewConnection['credential']): StoredCredential {
  if (provider.auth.type === 'api_key') {
    if (typeof credential !== 'string') {
      throw invalidInput('this provider takes an API key: send credential as a string', [{ name: 'credential', reason: 'must be a string' }]);
    }
    checkSendable(credential, !provider.auth.query, 'credential');
    return { type: 'api_key', secret: credential };
  }
  if (typeof credential === 'string') {
    throw invalidInput('this provider takes OAuth2 tokens: send credential as {access_token, refresh_token?, expires_at?, scopes?}', [
      { name: 'credential', reason: 'must be an object' },
    ]);
  }
  checkSendable(credential.access_token, true, 'credential.access_token');
  return {
    type: 'oauth2',
    access_token: credential.access_token,
    ...(credential.refresh_token !== undefined ? { refresh_token: credential.refresh_token } : {}),
    ...(credential.expires_at !== undefined ? { expires_at: Date.parse(credential.expires_at) } : {}),
    ...(credential.scopes !== undefined ? { scopes: credential.scopes } : {}),
  };
}

/**
 * POST /v1/connections: checks the credential with the provider's probe, then attaches it to the principal
 * (default `organization`). An OAuth2 credential without `scopes` is taken to carry the provider's default scopes.
 */
export async function createConnection(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  caller: Caller,
  body: NewConnection,
  now = Date.now(),
): Promise<Connection> {
  const provider = provided(gateway, body.provider);
  const principal = actingPrincipal(caller, body.principal);
  const credential = storedCredential(provider, body.credential);
  const account = await probeCredential(provider, secretOf(credential), gateway.config.upstream.timeout_ms);
  const scopes = credential.type === 'oauth2' ? credential.scopes ?? (provider.auth.type === 'oauth2' ? provider.auth.scopes : []) : [];
  return saveConsentedConnection(gateway, {
    organizationId: caller.organization.id,
    principal,
    provider: provider.slug,
    accountId: account.account_id,
    label: body.label ?? account.account_name,
    credential,
    scopes,
  }, now);
}

/**
 * Attaches a provider account to a principal, in one transaction with its grant and event: a new account
 * is a new connection (`connection.created`); an account the principal already had comes back under the
 * same id (`connection.restored` when it was revoked or needed re-auth; a fresh credential, no event,
 * when it was active). A principal's only live connection to a provider is its default.
 */
export async function saveConsentedConnection(gateway: Pick<Gateway, 'db' | 'keyring'>, attach: ConsentedConnection, now = Date.now()): Promise<Connection> {
  const { db } = gateway;
  const sealed = sealCredential(gateway.keyring, attach.credential);
  const expiresAt = attach.credential.type === 'oauth2' ? attach.credential.expires_at ?? null : null;
  const { scopes } = attach;
  const row = await db.transaction(async (t) => {
    const { organizationId, principal, provider } = attach;
    const existing = attach.accountId === null ? null : await findConnectionByAccount(t, organizationId, principal, provider, attach.accountId);
    const live = await liveConnections(t, organizationId, principal, provider);
    let event: ConnectionEvent | null;
    let id: string;
    if (existing) {
      id = existing.id;
      const othersLive = live.filter((c) => c.id !== existing.id).length;
      const isDefault = existing.status === 'revoked' ? othersLive === 0 : existing.is_default;
      await reactivateConnection(t, id, {
        label: attach.label ?? existing.label,
        scopes,
        is_default: isDefault,
        credential: sealed,
        credential_expires_at: expiresAt,
        updated_at: now,
      });
      if ((await updateActiveGrantScopes(t, id, scopes, now)) === 0) await writeGrant(t, attach, id, scopes, now);
      event = existing.status === 'active' ? null : 'connection.restored';
    } else {
      id = newId('conn', now);
      await insertConnection(t, {
        id,
        organization_id: organizationId,
        provider,
        principal,
        account_id: attach.accountId,
        label: attach.label,
        status: 'active',
        scopes,
        is_default: live.length === 0,
        credential: sealed,
        credential_expires_at: expiresAt,
        created_at: now,
        updated_at: now,
        last_used_at: null,
      });
      await writeGrant(t, attach, id, scopes, now);
      event = 'connection.created';
    }
    const saved = (await findConnection(t, organizationId, id))!;
    if (event) await emitConnectionEvent(t, organizationId, event, presentConnection(saved));
    await recordPrincipalUse(t, organizationId, principal, now);
    return saved;
  });
  return presentConnection(row);
}

async function writeGrant(t: Transaction, attach: ConsentedConnection, connectionId: string, scopes: string[], now: number) {
  await insertGrant(t, {
    id: newId('grant', now),
    organization_id: attach.organizationId,
    principal: attach.principal,
    provider: attach.provider,
    connection_id: connectionId,
    scopes,
    state: 'active',
    created_at: now,
    updated_at: now,
  });
}

/**
 * The provider refused a connection's credential (or its refresh): status needs_reauth and one
 * `connection.needs_reauth` event. A connection already needing re-auth (or revoked) is left as it is.
 */
export async function markNeedsReauth(gateway: Pick<Gateway, 'db'>, connectionId: string, now = Date.now()): Promise<void> {
  const { db } = gateway;
  await db.transaction(async (t) => {
    if (!(await changeConnectionStatus(t, connectionId, ['active'], 'needs_reauth', now))) return;
    const row = (await findConnectionById(t, connectionId))!;
    await emitConnectionEvent(t, row.organization_id, 'connection.needs_reauth', presentConnection(row));
  });
}

/** A connection of the organization; `principal` set (a token's own) hides everyone else's as not found. */
async function visibleConnection(db: Executor, organizationId: string, id: string, principal: string | null) {
  const row = await findConnection(db, organizationId, id);
  if (!row || (principal !== null && row.principal !== principal)) {
    throw new GatewayError('connection_not_found', `no connection ${id} in this organization`);
  }
  return row;
}

export async function listConnections(
  gateway: Pick<Gateway, 'db'>,
  caller: Caller,
  query: { principal?: string; provider?: string; cursor?: string },
): Promise<{ connections: Connection[]; next_cursor: string | null }> {
  const principal = listPrincipal(caller, query.principal);
  const rows = await pageConnections(gateway.db, caller.organization.id, { principal, provider: query.provider }, pageQuery(query.cursor));
  const page = toPage(rows, (row) => row.id);
  return { connections: page.items.map(presentConnection), next_cursor: page.next_cursor };
}

export async function getConnection(gateway: Pick<Gateway, 'db'>, caller: Caller, id: string): Promise<ConnectionDetail> {
  const row = await visibleConnection(gateway.db, caller.organization.id, id, caller.principal);
  const [grants, lastCall] = await Promise.all([grantsOfConnection(gateway.db, id), lastCallOfConnection(gateway.db, caller.organization.id, id)]);
  return presentConnectionDetail(row, grants, lastCall);
}

/** PATCH: a new label, and/or this connection becomes its principal's default for the provider. */
export async function changeConnection(
  gateway: Pick<Gateway, 'db'>,
  caller: Caller,
  id: string,
  change: ConnectionChange,
  now = Date.now(),
): Promise<Connection> {
  const { db } = gateway;
  const row = await db.transaction(async (t) => {
    const current = await visibleConnection(t, caller.organization.id, id, caller.principal);
    if (change.default && current.status === 'revoked') {
      throw invalidInput('a revoked connection cannot be the default', [{ name: 'default', reason: 'the connection is revoked' }]);
    }
    if (change.label !== undefined) await setConnectionLabel(t, id, change.label, now);
    if (change.default) await setDefaultConnection(t, current.organization_id, current.principal, current.provider, id, now);
    return (await findConnection(t, current.organization_id, id))!;
  });
  return presentConnection(row);
}

/**
 * Revokes a connection: status revoked, its grant revoked, `connection.revoked`, in one transaction;
 * then, best effort, at the provider. Revoking the default leaves the one remaining connection as the
 * default, or none when several remain (runs then answer connection_ambiguous). Past calls keep naming
 * it. Revoking a revoked connection changes nothing. `principal` set limits it to that principal's.
 */
export async function revokeConnection(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog' | 'log'>,
  organizationId: string,
  id: string,
  principal: string | null = null,
  now = Date.now(),
): Promise<Connection> {
  const { db } = gateway;
  const { row, revoked } = await db.transaction(async (t) => {
    const current = await visibleConnection(t, organizationId, id, principal);
    if (!(await changeConnectionStatus(t, id, ['active', 'needs_reauth'], 'revoked', now))) return { row: current, revoked: false };
    await revokeGrantsOfConnection(t, id, now);
    if (current.is_default) {
      const remaining = await liveConnections(t, organizationId, current.principal, current.provider);
      if (remaining.length === 1) await setDefaultConnection(t, organizationId, current.principal, current.provider, remaining[0].id, now);
    }
    const updated = (await findConnection(t, organizationId, id))!;
    await emitConnectionEvent(t, organizationId, 'connection.revoked', presentConnection(updated));
    return { row: updated, revoked: true };
  });
  if (revoked) await revokeAtProvider(gateway, row);
  return presentConnection(row);
}
