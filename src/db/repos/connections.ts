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
  /** JSON array of scope names. */
  scopes: string;
  is_default: number;
  /** The provider credential, encrypted with the keyring (see domain/connections/credentials.ts). */
  credential: string;
  credential_expires_at: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
}

export interface GrantRow {
  id: string;
  organization_id: string;
  principal: string;
  provider: string;
  connection_id: string;
  scopes: string;
  state: 'active' | 'revoked';
  created_at: number;
  updated_at: number;
}

export async function findConnection(db: Executor, organizationId: string, id: string): Promise<ConnectionRow | null> {
  const rows = await db.select<ConnectionRow>('SELECT * FROM connections WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  return rows[0] ?? null;
}

/** A connection by id alone, for work that starts from a connection (a refused credential, a refresh). */
export async function findConnectionById(db: Executor, id: string): Promise<ConnectionRow | null> {
  const rows = await db.select<ConnectionRow>('SELECT * FROM connections WHERE id = $1', [id]);
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
  const rows = await db.select<ConnectionRow>(
    `SELECT * FROM connections WHERE organization_id = $1 AND principal = $2 AND provider = $3 AND account_id = $4
      ORDER BY id DESC LIMIT 1`,
    [organizationId, principal, provider, accountId],
  );
  return rows[0] ?? null;
}

/** Connections not revoked (active or needing re-auth) of a principal to a provider, oldest first. */
export function liveConnections(db: Executor, organizationId: string, principal: string, provider: string): Promise<ConnectionRow[]> {
  return db.select<ConnectionRow>(
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
    [row.id, row.organization_id, row.provider, row.principal, row.account_id, row.label, row.status, row.scopes, row.is_default,
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
    [id, changes.label, changes.scopes, changes.is_default, changes.credential, changes.credential_expires_at, changes.updated_at],
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

export async function touchConnection(db: Executor, id: string, now: number): Promise<void> {
  await db.execute('UPDATE connections SET last_used_at = $2 WHERE id = $1', [id, now]);
}

export function pageConnections(
  db: Executor,
  organizationId: string,
  filters: { principal?: string; provider?: string },
  page: PageQuery,
): Promise<ConnectionRow[]> {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  if (filters.principal !== undefined) conditions.push(['principal = ?', filters.principal]);
  if (filters.provider !== undefined) conditions.push(['provider = ?', filters.provider]);
  return selectPage<ConnectionRow>(db, 'connections', conditions, page);
}

export async function insertGrant(tx: Transaction, row: GrantRow): Promise<void> {
  await tx.execute(
    `INSERT INTO grants (id, organization_id, principal, provider, connection_id, scopes, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.id, row.organization_id, row.principal, row.provider, row.connection_id, row.scopes, row.state, row.created_at, row.updated_at],
  );
}

export async function updateActiveGrantScopes(tx: Transaction, connectionId: string, scopes: string, now: number): Promise<number> {
  return tx.execute(`UPDATE grants SET scopes = $2, updated_at = $3 WHERE connection_id = $1 AND state = 'active'`, [connectionId, scopes, now]);
}

export async function revokeGrantsOfConnection(tx: Transaction, connectionId: string, now: number): Promise<void> {
  await tx.execute(`UPDATE grants SET state = 'revoked', updated_at = $2 WHERE connection_id = $1 AND state = 'active'`, [connectionId, now]);
}

export function grantsOfConnection(db: Executor, connectionId: string): Promise<GrantRow[]> {
  return db.select<GrantRow>('SELECT * FROM grants WHERE connection_id = $1 ORDER BY id DESC', [connectionId]);
}
