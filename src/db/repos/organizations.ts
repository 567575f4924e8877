import { fromJsonText, toJsonText } from '../codecs.js';
import type { Executor } from '../database.js';

export interface OrganizationRow {
  id: string;
  name: string;
  /** What hosted pages show ("Acme"); the name is the slug commands and keys use. */
  display_name: string;
  status: 'active' | 'suspended';
  /** Origins allowed to call with an Origin header. */
  trusted_origins: string[];
  /** Allowlisted connect callbacks. */
  redirect_uris: string[];
  /** JSON text of the approval policy (src/domain/approvals/policy.ts reads it), `{}` until one is set. */
  approval_policy: string;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, name, display_name, status, trusted_origins, redirect_uris, approval_policy, created_at, updated_at';

/** The lists are JSON text at rest. */
type StoredOrganization = Omit<OrganizationRow, 'trusted_origins' | 'redirect_uris'> & { trusted_origins: string; redirect_uris: string };

const decode = (stored: StoredOrganization): OrganizationRow => ({
  ...stored,
  trusted_origins: fromJsonText(stored.trusted_origins),
  redirect_uris: fromJsonText(stored.redirect_uris),
});

/** An organization's trusted origins as the callers' lookups read them (JSON text at rest). */
export const decodeTrustedOrigins = (text: string): string[] => fromJsonText(text);

/** Inserts the organization unless its name is taken (in any case); false when it was. */
export async function insertOrganization(db: Executor, row: OrganizationRow): Promise<boolean> {
  const inserted = await db.execute(`INSERT INTO organizations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`, [
    row.id,
    row.name,
    row.display_name,
    row.status,
    toJsonText(row.trusted_origins),
    toJsonText(row.redirect_uris),
    row.approval_policy,
    row.created_at,
    row.updated_at,
  ]);
  return inserted === 1;
}

export async function findOrganizationByName(db: Executor, name: string): Promise<OrganizationRow | null> {
  const [found] = await db.select<StoredOrganization>(`SELECT ${COLUMNS} FROM organizations WHERE lower(name) = lower($1)`, [name]);
  return found ? decode(found) : null;
}

export async function findOrganizationById(db: Executor, id: string): Promise<OrganizationRow | null> {
  const [found] = await db.select<StoredOrganization>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
  return found ? decode(found) : null;
}

export async function listOrganizationRows(db: Executor): Promise<OrganizationRow[]> {
  return (await db.select<StoredOrganization>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at ASC, id ASC`)).map(decode);
}

export async function countOrganizations(db: Executor): Promise<number> {
  const [row] = await db.select<{ n: number | string }>('SELECT COUNT(*) AS n FROM organizations');
  return Number(row.n);
}

export async function updateOrganization(
  db: Executor,
  id: string,
  changes: Partial<Pick<OrganizationRow, 'status' | 'display_name' | 'trusted_origins' | 'redirect_uris' | 'approval_policy'>>,
): Promise<void> {
  const columns = Object.keys(changes) as Array<keyof typeof changes>;
  const assignments = columns.map((column, i) => `${column} = $${i + 3}`);
  await db.execute(`UPDATE organizations SET ${['updated_at = $2', ...assignments].join(', ')} WHERE id = $1`, [
    id,
    Date.now(),
    ...columns.map((column) => (column === 'trusted_origins' || column === 'redirect_uris' ? toJsonText(changes[column]) : changes[column])),
  ]);
}
