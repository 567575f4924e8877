import { insertApiKey, listApiKeyRows, revokeApiKeyRow } from '../db/repos/api-keys.js';
import type { Role } from '../db/repos/api-keys.js';

export type { Role };
import { invalidInput } from './errors.js';
import type { Gateway } from './gateway.js';
import { newId } from './ids.js';
import { hashSecret, newSecret } from './secrets.js';
import { isoTime, isoTimeOrNull } from './time.js';

export const roles: Role[] = ['owner', 'admin', 'member'];
export const API_KEY_PREFIX = 'gw_live_';

export interface CreatedApiKey {
  id: string;
  key: string;
  role: Role;
  name: string | null;
}

export interface ApiKeySummary {
  id: string;
  name: string | null;
  role: Role;
  created_at: string;
  revoked_at: string | null;
}

export async function createApiKey(gateway: Pick<Gateway, 'db'>, organizationId: string, role: Role, name?: string): Promise<CreatedApiKey> {
  if (!roles.includes(role)) throw invalidInput(`role must be one of ${roles.join(', ')}`);
  const now = Date.now();
  const key = newSecret(API_KEY_PREFIX);
  const id = newId('key', now);
  await insertApiKey(gateway.db, { id, organization_id: organizationId, name: name ?? null, role, key_hash: hashSecret(key), created_at: now });
  return { id, key, role, name: name ?? null };
}

export async function listApiKeys(gateway: Pick<Gateway, 'db'>, organizationId: string): Promise<ApiKeySummary[]> {
  return (await listApiKeyRows(gateway.db, organizationId)).map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    created_at: isoTime(row.created_at),
    revoked_at: isoTimeOrNull(row.revoked_at),
  }));
}

export async function revokeApiKey(gateway: Pick<Gateway, 'db'>, organizationId: string, id: string): Promise<void> {
  if (!(await revokeApiKeyRow(gateway.db, organizationId, id, Date.now()))) {
    throw invalidInput(`no active key with id ${id} in this organization`);
  }
}
