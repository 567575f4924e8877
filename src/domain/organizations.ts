import {
  countOrganizations,
  findOrganizationByName,
  insertOrganization,
  listOrganizationRows,
  updateOrganization,
} from '../db/repos/organizations.js';
import type { OrganizationRow } from '../db/repos/organizations.js';
import { GatewayError, invalidInput } from './errors.js';
import type { Gateway } from './gateway.js';
import { newId } from './ids.js';
import { isoTime } from './time.js';

export interface Organization {
  id: string;
  name: string;
  display_name: string;
  status: 'active' | 'suspended';
  trusted_origins: string[];
  created_at: string;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

export function presentOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    status: row.status,
    trusted_origins: row.trusted_origins,
    created_at: isoTime(row.created_at),
  };
}

/** A display name is one line of 1-100 printable characters: hosted pages show it as written. */
function checkDisplayName(displayName: string): string {
  const trimmed = displayName.trim();
  if (!trimmed || trimmed.length > 100 || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(trimmed) || !trimmed.isWellFormed()) {
    throw invalidInput('a display name must be 1-100 characters on one line, without control characters');
  }
  return trimmed;
}

/** The name is taken (names compare case-insensitively): a failure of the work, not a malformed request. */
export class OrganizationExists extends Error {}

export async function createOrganization(gateway: Pick<Gateway, 'db'>, name: string, displayName?: string): Promise<Organization> {
  if (!NAME.test(name)) throw invalidInput(`organization name "${name}" must be 1-100 letters, digits, dots, dashes or underscores`);
  const display_name = displayName === undefined ? name : checkDisplayName(displayName);
  const now = Date.now();
  const row: OrganizationRow = {
    id: newId('org', now),
    name,
    display_name,
    status: 'active',
    trusted_origins: [],
    redirect_uris: [],
    approval_policy: '{}',
    created_at: now,
    updated_at: now,
  };
  if (!(await insertOrganization(gateway.db, row))) {
    const existing = await findOrganizationByName(gateway.db, name);
    const taken = existing?.name ?? name;
    throw new OrganizationExists(`organization "${taken}" already exists${taken === name ? '' : ' (names compare case-insensitively)'}`);
  }
  return presentOrganization(row);
}

export async function listOrganizations(gateway: Pick<Gateway, 'db'>): Promise<Organization[]> {
  return (await listOrganizationRows(gateway.db)).map(presentOrganization);
}

export async function hasOrganizations(gateway: Pick<Gateway, 'db'>): Promise<boolean> {
  return (await countOrganizations(gateway.db)) > 0;
}

/** Resolves the organization an admin command acts on: the named one, or the only one there is. */
export async function resolveOrganization(gateway: Pick<Gateway, 'db'>, name?: string): Promise<OrganizationRow> {
  if (name !== undefined) {
    const found = await findOrganizationByName(gateway.db, name);
    if (!found) throw new GatewayError('no_active_organization', `organization "${name}" does not exist`);
    return found;
  }
  const all = await listOrganizationRows(gateway.db);
  if (all.length === 1) return all[0];
  if (all.length === 0) throw new GatewayError('no_active_organization', 'no organization exists yet; run gateway serve or gateway orgs create NAME');
  throw invalidInput(`several organizations exist (${all.map((o) => o.name).join(', ')}); name one with --org`);
}

export async function setOrganizationStatus(gateway: Pick<Gateway, 'db'>, name: string, status: Organization['status']): Promise<Organization> {
  const org = await resolveOrganization(gateway, name);
  await updateOrganization(gateway.db, org.id, { status });
  return presentOrganization({ ...org, status });
}

/** `gateway orgs rename NAME --display-name TEXT`: what hosted pages call the organization from now on. */
export async function renameOrganization(gateway: Pick<Gateway, 'db'>, name: string, displayName: string): Promise<Organization> {
  const org = await resolveOrganization(gateway, name);
  const display_name = checkDisplayName(displayName);
  await updateOrganization(gateway.db, org.id, { display_name });
  return presentOrganization({ ...org, display_name });
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

export async function setTrustedOrigins(gateway: Pick<Gateway, 'db'>, name: string, origins: string[]): Promise<Organization> {
  const org = await resolveOrganization(gateway, name);
  const normalised = [...new Set(origins.map(normaliseOrigin))];
  const trusted_origins = normalised;
  await updateOrganization(gateway.db, org.id, { trusted_origins });
  return presentOrganization({ ...org, trusted_origins });
}
