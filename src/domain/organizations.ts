import {
  countOrganizations,
  findOrganizationByName,
  insertOrganization,
  listOrganizationRows,
  updateOrganization,
} from '../db/repos/organizations.js';
import type { Database } from '../db/database.js';
import type { OrganizationRow } from '../db/repos/organizations.js';
import { GatewayError, invalidInput } from './errors.js';
import { newId } from './ids.js';
import { isoTime } from './time.js';

export interface Organization {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  trusted_origins: string[];
  created_at: string;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

export function presentOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trusted_origins: row.trusted_origins,
    created_at: isoTime(row.created_at),
  };
}

export async function createOrganization(db: Database, name: string): Promise<Organization> {
  if (!NAME.test(name)) throw invalidInput(`organization name "${name}" must be 1-100 letters, digits, dots, dashes or underscores`);
  if (await findOrganizationByName(db, name)) throw invalidInput(`organization "${name}" already exists`);
  const now = Date.now();
  const row: OrganizationRow = {
    id: newId('org', now),
    name,
    status: 'active',
    trusted_origins: [],
    redirect_uris: [],
    created_at: now,
    updated_at: now,
  };
  await insertOrganization(db, row);
  return presentOrganization(row);
}

export async function listOrganizations(db: Database): Promise<Organization[]> {
  return (await listOrganizationRows(db)).map(presentOrganization);
}

export async function hasOrganizations(db: Database): Promise<boolean> {
  return (await countOrganizations(db)) > 0;
}

/** Resolves the organization an admin command acts on: the named one, or the only one there is. */
export async function resolveOrganization(db: Database, name?: string): Promise<OrganizationRow> {
  if (name !== undefined) {
    const found = await findOrganizationByName(db, name);
    if (!found) throw new GatewayError('no_active_organization', `organization "${name}" does not exist`);
    return found;
  }
  const all = await listOrganizationRows(db);
  if (all.length === 1) return all[0];
  if (all.length === 0) throw new GatewayError('no_active_organization', 'no organization exists yet; run gateway serve or gateway orgs create NAME');
  throw invalidInput(`several organizations exist (${all.map((o) => o.name).join(', ')}); name one with --org`);
}

export async function setOrganizationStatus(db: Database, name: string, status: Organization['status']): Promise<Organization> {
  const org = await resolveOrganization(db, name);
  await updateOrganization(db, org.id, { status });
  return presentOrganization({ ...org, status });
}

/** An origin is scheme://host[:port] with nothing after it, the form browsers send. */
export function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw invalidInput(`"${origin}" is not an origin like https://app.example.com`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin === 'null' || `${url.origin}` !== origin.replace(/\/$/, '')) {
    throw invalidInput(`"${origin}" is not an origin like https://app.example.com`);
  }
  return url.origin;
}

export async function setTrustedOrigins(db: Database, name: string, origins: string[]): Promise<Organization> {
  const org = await resolveOrganization(db, name);
  const normalised = [...new Set(origins.map(normaliseOrigin))];
  const trusted_origins = normalised;
  await updateOrganization(db, org.id, { trusted_origins });
  return presentOrganization({ ...org, trusted_origins });
}
