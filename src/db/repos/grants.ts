import { fromJsonText, toJsonText } from '../codecs.js';
import type { Executor, Transaction } from '../database.js';
import { selectPage, type Condition, type PageQuery } from '../pages.js';

export interface GrantRow {
  id: string;
  organization_id: string;
  principal: string;
  provider: string;
  connection_id: string;
  scopes: string[];
  state: 'active' | 'revoked';
  created_at: number;
  updated_at: number;
}

/** Scopes are JSON text at rest. */
type StoredGrant = Omit<GrantRow, 'scopes'> & { scopes: string };

const decode = (stored: StoredGrant): GrantRow => ({ ...stored, scopes: fromJsonText(stored.scopes) });

export async function insertGrant(tx: Transaction, row: GrantRow): Promise<void> {
  await tx.execute(
    `INSERT INTO grants (id, organization_id, principal, provider, connection_id, scopes, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.id, row.organization_id, row.principal, row.provider, row.connection_id, toJsonText(row.scopes), row.state, row.created_at, row.updated_at],
  );
}

export async function updateActiveGrantScopes(tx: Transaction, connectionId: string, scopes: string[], now: number): Promise<number> {
  return tx.execute(`UPDATE grants SET scopes = $2, updated_at = $3 WHERE connection_id = $1 AND state = 'active'`, [connectionId, toJsonText(scopes), now]);
}

export async function revokeGrantsOfConnection(tx: Transaction, connectionId: string, now: number): Promise<void> {
  await tx.execute(`UPDATE grants SET state = 'revoked', updated_at = $2 WHERE connection_id = $1 AND state = 'active'`, [connectionId, now]);
}

export async function grantsOfConnection(db: Executor, connectionId: string): Promise<GrantRow[]> {
  return (await db.select<StoredGrant>('SELECT * FROM grants WHERE connection_id = $1 ORDER BY id DESC', [connectionId])).map(decode);
}

export async function pageGrants(
  db: Executor,
  organizationId: string,
  filters: { principal?: string; state?: GrantRow['state'] },
  page: PageQuery,
): Promise<GrantRow[]> {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  if (filters.principal !== undefined) conditions.push(['principal = ?', filters.principal]);
  if (filters.state !== undefined) conditions.push(['state = ?', filters.state]);
  return (await selectPage<StoredGrant>(db, 'grants', conditions, page)).map(decode);
}
