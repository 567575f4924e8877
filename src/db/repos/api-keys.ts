import type { Database } from '../database.js';
import type { ApiKeyRow, OrganizationRow } from '../models/index.js';

export async function insertApiKey(db: Database, row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
  await db.models.ApiKey.create(row);
}

export async function listApiKeyRows(db: Database, organizationId: string): Promise<ApiKeyRow[]> {
  return (await db.models.ApiKey.findAll({
    where: { organization_id: organizationId },
    order: [['id', 'ASC']],
    raw: true,
  })) as unknown as ApiKeyRow[];
}

export async function revokeApiKeyRow(db: Database, organizationId: string, id: string, now: number): Promise<boolean> {
  const [count] = await db.models.ApiKey.update(
    { revoked_at: now },
    { where: { organization_id: organizationId, id, revoked_at: null } },
  );
  return count > 0;
}

export type KeyWithOrganization = Pick<ApiKeyRow, 'id' | 'role' | 'name' | 'key_hash'> & {
  organization: Pick<OrganizationRow, 'id' | 'name' | 'status' | 'trusted_origins'>;
};

/** The hot lookup of every request: one indexed read, no ORM instance. */
export async function findActiveKeyByHash(db: Database, keyHash: string): Promise<KeyWithOrganization | null> {
  const rows = await db.select<Record<string, string>>(
    `SELECT k.id, k.role, k.name, k.key_hash, o.id AS org_id, o.name AS org_name, o.status AS org_status,
            o.trusted_origins AS org_origins
       FROM api_keys k JOIN organizations o ON o.id = k.organization_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [keyHash],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    role: row.role as ApiKeyRow['role'],
    name: row.name,
    key_hash: row.key_hash,
    organization: {
      id: row.org_id,
      name: row.org_name,
      status: row.org_status as OrganizationRow['status'],
      trusted_origins: row.org_origins,
    },
  };
}
