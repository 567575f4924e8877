import type { Transaction } from 'sequelize';
import type { Database } from '../database.js';
import type { OrganizationRow, UserTokenRow } from '../models/index.js';
import { selectPage, type PageQuery } from '../pages.js';

export async function insertUserToken(db: Database, row: Omit<UserTokenRow, 'revoked_at'>, transaction?: Transaction): Promise<void> {
  await db.models.UserToken.create(row, { transaction });
}

/** Tokens still usable (neither revoked nor expired), newest first. */
export async function pageHeldTokens(db: Database, organizationId: string, now: number, page: PageQuery): Promise<UserTokenRow[]> {
  return selectPage<UserTokenRow>(
    db,
    'user_tokens',
    [['organization_id = ?', organizationId], ['revoked_at IS NULL'], ['expires_at > ?', now]],
    page,
  );
}

/** Revokes a token that is still usable; false when there is none by that id (unknown, revoked or expired). */
export async function revokeUserTokenRow(db: Database, organizationId: string, id: string, now: number): Promise<boolean> {
  const count = await db.execute(
    `UPDATE user_tokens SET revoked_at = $1
      WHERE organization_id = $2 AND id = $3 AND revoked_at IS NULL AND expires_at > $1`,
    [now, organizationId, id],
  );
  return count > 0;
}

/** Whether a token of the organization is still usable: neither revoked nor expired. */
export async function isLiveToken(db: Database, organizationId: string, id: string, now: number): Promise<boolean> {
  const rows = await db.select(
    'SELECT 1 FROM user_tokens WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL AND expires_at > $3',
    [organizationId, id, now],
  );
  return rows.length > 0;
}

export type TokenWithOrganization = Pick<UserTokenRow, 'id' | 'principal' | 'expires_at' | 'issued_by' | 'token_hash'> & {
  organization: Pick<OrganizationRow, 'id' | 'name' | 'status' | 'trusted_origins'>;
};

export async function findLiveTokenByHash(db: Database, tokenHash: string, now: number): Promise<TokenWithOrganization | null> {
  const rows = await db.select<Record<string, string | number>>(
    `SELECT t.id, t.principal, t.expires_at, t.issued_by, t.token_hash, o.id AS org_id, o.name AS org_name,
            o.status AS org_status, o.trusted_origins AS org_origins
       FROM user_tokens t JOIN organizations o ON o.id = t.organization_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
    [tokenHash, now],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: String(row.id),
    principal: String(row.principal),
    expires_at: Number(row.expires_at),
    issued_by: String(row.issued_by),
    token_hash: String(row.token_hash),
    organization: {
      id: String(row.org_id),
      name: String(row.org_name),
      status: row.org_status as OrganizationRow['status'],
      trusted_origins: String(row.org_origins),
    },
  };
}
