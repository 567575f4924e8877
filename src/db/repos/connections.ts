import { fromFlag, fromJsonText, toFlag, toJsonText } from '../codecs.js';
import type { Executor, Transaction } from '../database.js';
import { selectPage, type Condition, type PageQuery } from '../pages.js';

export type ConnectionStatus = 'active' | 'needs_reauth' | 'revoked';

export interface ConnectionRow {
  id: string;
  organization_id: string;
  provider: string;
  principal: string;
  account_id: string | null;
  label: string | null;
  status: ConnectionStatus;
  scopes: string[];
  /** The one connection a principal's runs use when it has several to a provider. */
  is_default: boolean;
  /** The provider credential, encrypted with the keyring (see domain/connections/credentials.ts). */
  credential: string;
  credential_expires_at: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
}

/** Scopes are JSON text and the default flag 0/1 at rest. */
type StoredConnection = Omit<ConnectionRow, 'scopes' | 'is_default'> & { scopes: string; is_default: number | string };

const decode = (stored: StoredConnection): ConnectionRow => ({ ...stored, scopes: fromJsonText(stored.scopes), is_default: fromFlag(stored.is_default) });

async function selectConnections(db: Executor, sql: string, bind: unknown[]): Promise<ConnectionRow[]> {
  return (await db.select<StoredConnection>(sql, bind)).map(decode);
}

export async function findConnection(db: Executor, organizationId: string, id: string): Promise<ConnectionRow | null> {
  const rows = await selectConnections(db, 'SELECT * FROM connections WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  return rows[0] ?? null;
}

/** A connection by id alone, for work that starts from a connection (a refused credential, a refresh). */
export async function findConnectionById(db: Executor, id: string): Promise<ConnectionRow | null> {
  const rows = await selectConnections(db, 'SELECT * FROM connections WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** The newest connection of one provider account for a principal, in any status. */
export async function findConnectionByAccount(
  db: Executor,
  organizationId: string,
  principal: string,
  provider: string,
  accountId: string,
): Promise<ConnectionRow | null> {
  const rows = await selectConnections(db, 
    `SELECT * FROM connections WHERE organization_id = $1 AND principal = $2 AND provider = $3 AND account_id = $4
      ORDER BY id DESC LIMIT 1`,
    [organizationId, principal, provider, accountId],
  );
  return rows[0] ?? null;
}

/** Connections not revoked (active or needing re-auth) of a principal to a provider, oldest first. */
export function liveConnections(db: Executor, organizationId: string, principal: string, provider: string): Promise<ConnectionRow[]> {
  return selectConnections(
    db,
    `SELECT * FROM connections WHERE organization_id = $1 AND principal = $2 AND provider = $3 AND status <> 'revoked'
      ORDER BY id ASC`,
    [organizationId, principal, provider],
  );
}

export async function insertConnection(tx: Transaction, row: ConnectionRow): Promise<void> {
  await tx.execute(
    `INSERT INTO connections (id, organization_id, provider, principal, account_id, label, status, scopes, is_default, credential,
                              credential_expires_at, created_at, updated_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [row.id, row.organization_id, row.provider, row.principal, row.account_id, row.label, row.status, toJsonText(row.scopes), toFlag(row.is_default),
      row.credential, row.credential_expires_at, row.created_at, row.updated_at, row.last_used_at],
  );
}

/** A fresh credential for an existing connection (re-attached or re-consented): active again. */
export async function reactivateConnection(
  tx: Transaction,
  id: string,
  changes: Pick<ConnectionRow, 'label' | 'scopes' | 'is_default' | 'credential' | 'credential_expires_at' | 'updated_at'>,
): Promise<void> {
  await tx.execute(
    `UPDATE connections SET status = 'active', label = $2, scopes = $3, is_default = $4, credential = $5, credential_expires_at = $6,
            updated_at = $7 WHERE id = $1`,
    [id, changes.label, toJsonText(changes.scopes), toFlag(changes.is_default), changes.credential, changes.credential_expires_at, changes.updated_at],
  );
}

/** Moves a connection from one status to another; returns false when it was not in `from`. */
export async function changeConnectionStatus(
  db: Executor,
  id: string,
  from: ConnectionStatus[],
  to: ConnectionStatus,
  now: number,
): Promise<boolean> {
  const placeholders = from.map((_, i) => `$${i + 4}`).join(', ');
  // A revoked connection is never the default.
  const isDefault = to === 'revoked' ? '0' : 'is_default';
  const changed = await db.execute(
    `UPDATE connections SET status = $2, is_default = ${isDefault}, updated_at = $3 WHERE id = $1 AND status IN (${placeholders})`,
    [id, to, now, ...from],
  );
  return changed > 0;
}

/** Makes `id` the only default among its principal's connections to the provider (`id` null: none is). */
export async function setDefaultConnection(
  tx: Transaction,
  organizationId: string,
  principal: string,
  provider: string,
  id: string | null,
  now: number,
): Promise<void> {
  await tx.execute(
    `UPDATE connections SET is_default = CASE WHEN id = $4 THEN 1 ELSE 0 END, updated_at = $5
      WHERE organization_id = $1 AND principal = $2 AND provider = $3 AND (is_default = 1 OR id = $4)`,
    [organizationId, principal, provider, id ?? '', now],
  );
}

export async function setConnectionLabel(tx: Transaction, id: string, label: string | null, now: number): Promise<void> {
  await tx.execute('UPDATE connections SET label = $2, updated_at = $3 WHERE id = $1', [id, label, now]);
}

/** A refreshed credential (OAuth access token renewed) for the same connection. */
export async function replaceConnectionCredential(db: Executor, id: string, credential: string, expiresAt: number | null, now: number): Promise<void> {
  await db.execute('UPDATE connections SET credential = $2, credential_expires_at = $3, updated_at = $4 WHERE id = $1', [id, credential, expiresAt, now]);
}

export async function pageConnections(
  db: Executor,
  organizationId: string,
  filters: { principal?: string; provider?: string },
  page: PageQuery,
): Promise<ConnectionRow[]> {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  if (filters.principal !== undefined) conditions.push(['principal = ?', filters.principal]);
  if (filters.provider !== undefined) conditions.push(['provider = ?', filters.provider]);
  return (await selectPage<StoredConnection>(db, 'connections', conditions, page)).map(decode);
}

/**
 * Active connections whose credential expires within (now, until] and whose current expiry the
 * connection.expiring scan has not examined yet, soonest first.
 */
export async function unexaminedExpiringConnections(db: Executor, now: number, until: number, limit: number): Promise<ConnectionRow[]> {
  return selectConnections(
    db,
    `SELECT * FROM connections
      WHERE status = 'active' AND credential_expires_at > $1 AND credential_expires_at <= $2
        AND (expiring_checked_for IS NULL OR expiring_checked_for <> credential_expires_at)
      ORDER BY credential_expires_at, id
      LIMIT ${Math.floor(limit)}`,
    [now, until],
  );
}

/**
 * Records that the scan examined this connection's current expiry. Conditional, so when several
 * processes scan at once exactly one of them gets true (and announces it).
 */
export async function markExpiryExamined(tx: Transaction, connectionId: string, expiresAt: number): Promise<boolean> {
  const changed = await tx.execute(
    `UPDATE connections SET expiring_checked_for = $1
      WHERE id = $2 AND status = 'active' AND credential_expires_at = $1
        AND (expiring_checked_for IS NULL OR expiring_checked_for <> $1)`,
    [expiresAt, connectionId],
  );
  return changed > 0;
}

export interface ActiveConnectionOwner {
  principal: string;
  provider: string;
}

/** Which of `principals` hold an active connection to which provider in the organization (read-only). */
export async function activeConnectionOwners(db: Executor, organizationId: string, principals: string[]): Promise<ActiveConnectionOwner[]> {
  const binds = principals.map((_, position) => `$${position + 2}`).join(', ');
  return db.select<ActiveConnectionOwner>(
    `SELECT DISTINCT principal, provider FROM connections
      WHERE organization_id = $1 AND status = 'active' AND principal IN (${binds})`,
    [organizationId, ...principals],
  );
}
