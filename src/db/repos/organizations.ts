import type { Database } from '../database.js';
import type { OrganizationRow } from '../models/index.js';

export async function insertOrganization(db: Database, row: OrganizationRow): Promise<void> {
  await db.models.Organization.create(row);
}

export async function findOrganizationByName(db: Database, name: string): Promise<OrganizationRow | null> {
  const found = await db.models.Organization.findOne({ where: { name }, raw: true });
  return (found as OrganizationRow | null) ?? null;
}

export async function findOrganizationById(db: Database, id: string): Promise<OrganizationRow | null> {
  const found = await db.models.Organization.findByPk(id, { raw: true });
  return (found as OrganizationRow | null) ?? null;
}

export async function listOrganizationRows(db: Database): Promise<OrganizationRow[]> {
  return (await db.models.Organization.findAll({ order: [['created_at', 'ASC']], raw: true })) as unknown as OrganizationRow[];
}

export async function countOrganizations(db: Database): Promise<number> {
  return db.models.Organization.count();
}

export async function updateOrganization(
  db: Database,
  id: string,
  changes: Partial<Pick<OrganizationRow, 'status' | 'trusted_origins' | 'redirect_uris'>>,
): Promise<void> {
  await db.models.Organization.update({ ...changes, updated_at: Date.now() }, { where: { id } });
}
