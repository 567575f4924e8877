import type { Database, Executor } from '../database.js';
import { groupedLookup, keysIn } from '../grouped-lookups.js';
import { selectPage, type PageQuery } from '../pages.js';
import { decodeTrustedOrigins, type OrganizationRow } from './organizations.js';

export interface UserTokenRow {
  id: string;
  organization_id: string;
  principal: string;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  token_hash: string;
  /** Id of the API key that issued it. */
  issued_by: string;
  expires_at: number;
  created_at: number;
  revoked_at: number | null;
}

export async function insertUserToken(db: Executor, row: Omit<UserTokenRow, 'revoked_at'>): Promise<void> {
  await db.execute(
    'INSERT INTO user_tokens (id, organization_id, principal, token_hash, issued_by, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [row.id, row.organization_id, row.principal, row.token_hash, row.issued_by, row.expires_at, row.created_at],
  );
}

/** Tokens still usable (neither revoked nor expired), newest first. */
export async function pageHeldTokens(db: Executor, organizationId: string, now: number, page: PageQuery): Promise<UserTokenRow[]> {
  return selectPage<UserTokenRow>(
    db,
    'user_tokens',
    [['organization_id = ?', organizationId], ['revoked_at IS NULL'], ['expires_at > ?', now]],
    page,
  );
}

/** Revokes a token that is still usable; false when there is none by that id (unknown, revoked or expired). */
export async function revokeUserTokenRow(db: Executor, organizationId: string, id: string, now: number): Promise<boolean> {
  const count = await db.execute(
    `UPDATE user_tokens SET revoked_at = $1
      WHERE organization_id = $2 AND id = $3 AND revoked_at IS NULL AND expires_at > $1`,
    [now, organizationId, id],
  );
  return count > 0;
}

/** Whether a token of the organization is still usable: neither revoked nor expired. */
export async function isLiveToken(db: Executor, organizationId: string, id: string, now: number): Promise<boolean> {
  const rows = await db.select(
    'SELECT 1 FROM user_tokens WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL AND expires_at > $3',
    [organizationId, id, now],
  );
  return rows.length > 0;
}

export type TokenWithOrganization = Pick<UserTokenRow, 'id' | 'principal' | 'expires_at' | 'issued_by' | 'token_hash'> & {
  organization: Pick<OrganizationRow, 'id' | 'name' | 'display_name' | 'status' | 'trusted_origins' | 'approval_policy'>;
};

const unrevokedTokensByHash = groupedLookup(
  (db, hashes) =>
    db.select<Record<string, string | number>>(
      `SELECT t.id, t.principal, t.expires_at, t.issued_by, t.token_hash, o.id AS org_id, o.name AS org_name, o.display_name AS org_display_name,
              o.status AS org_status, o.trusted_origins AS org_origins, o.approval_policy AS org_approval_policy
         FROM user_tokens t JOIN organizations o ON o.id = t.organization_id
        WHERE t.token_hash IN (${keysIn(db.dialect, '$1')}) AND t.revoked_at IS NULL`,
      [JSON.stringify(hashes)],
    ),
  (row) => String(row.token_hash),
);

/** A principal-bound token's lookup, grouped like a key's (api-keys.ts); its expiry is checked against each caller's `now`. */
export async function findLiveTokenByHash(db: Pick<Database, 'lookups'>, tokenHash: string, now: number): Promise<TokenWithOrganization | null> {
  const row = await unrevokedTokensByHash(db, tokenHash);
  if (!row || Number(row.expires_at) <= now) return null;
  return {
    id: String(row.id),
    principal: String(row.principal),
    expires_at: Number(row.expires_at),
    issued_by: String(row.issued_by),
    token_hash: String(row.token_hash),
    organization: {
      id: String(row.org_id),
      name: String(row.org_name),
      display_name: String(row.org_display_name),
      approval_policy: String(row.org_approval_policy),
      status: row.org_status as OrganizationRow['status'],
      trusted_origins: decodeTrustedOrigins(String(row.org_origins)),
    },
  };
}
