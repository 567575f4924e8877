import type { Database, Executor } from '../database.js';
import { groupedLookup, keysIn } from '../grouped-lookups.js';
import { decodeTrustedOrigins, type OrganizationRow } from './organizations.js';

export type Role = 'owner' | 'admin' | 'member';

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string | null;
  role: Role;
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export async function insertApiKey(db: Executor, row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
  await db.execute('INSERT INTO api_keys (id, organization_id, name, role, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    row.id,
    row.organization_id,
    row.name,
    row.role,
    row.key_hash,
    row.created_at,
  ]);
}

export function listApiKeyRows(db: Executor, organizationId: string): Promise<ApiKeyRow[]> {
  return db.select<ApiKeyRow>(
    'SELECT id, organization_id, name, role, key_hash, created_at, last_used_at, revoked_at FROM api_keys WHERE organization_id = $1 ORDER BY id ASC',
    [organizationId],
  );
}

export async function revokeApiKeyRow(db: Executor, organizationId: string, id: string, now: number): Promise<boolean> {
  const count = await db.execute('UPDATE api_keys SET revoked_at = $3 WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL', [organizationId, id, now]);
  return count > 0;
}

export type KeyWithOrganization = Pick<ApiKeyRow, 'id' | 'role' | 'name' | 'key_hash'> & {
  organization: Pick<OrganizationRow, 'id' | 'name' | 'display_name' | 'status' | 'trusted_origins' | 'approval_policy'>;
};

const activeKeysByHash = groupedLookup(
  (db, hashes) =>
    db.select<Record<string, string>>(
      `SELECT k.id, k.role, k.name, k.key_hash, o.id AS org_id, o.name AS org_name, o.display_name AS org_display_name, o.status AS org_status,
              o.trusted_origins AS org_origins, o.approval_policy AS org_approval_policy
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
        WHERE k.key_hash IN (${keysIn(db.dialect, '$1')}) AND k.revoked_at IS NULL`,
      [JSON.stringify(hashes)],
    ),
  (row) => row.key_hash,
);

/** The hot lookup of every request: an indexed read on the lookups' connections, grouped with the others under way. */
export async function findActiveKeyByHash(db: Pick<Database, 'lookups'>, keyHash: string): Promise<KeyWithOrganization | null> {
  const row = await activeKeysByHash(db, keyHash);
  if (!row) return null;
  return {
    id: row.id,
    role: row.role as ApiKeyRow['role'],
    name: row.name,
    key_hash: row.key_hash,
    organization: {
      id: row.org_id,
      name: row.org_name,
      display_name: row.org_display_name,
      approval_policy: row.org_approval_policy,
      status: row.org_status as OrganizationRow['status'],
      trusted_origins: decodeTrustedOrigins(row.org_origins),
    },
  };
}
