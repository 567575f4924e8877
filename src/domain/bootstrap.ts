import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Gateway } from './gateway.js';
import { createApiKey, type CreatedApiKey } from './api-keys.js';
import { createOrganization, hasOrganizations } from './organizations.js';

export const DEFAULT_ORGANIZATION = 'default';

/**
 * First run: an empty database gets the organization `default` with one owner key. The key is
 * returned to be printed once and kept in data/initial-owner-key (mode 0600) for scripts.
 */
export async function bootstrapIfEmpty(gateway: Gateway): Promise<CreatedApiKey | null> {
  if (await hasOrganizations(gateway.db)) return null;
  const org = await createOrganization(gateway.db, DEFAULT_ORGANIZATION);
  const key = await createApiKey(gateway.db, org.id, 'owner', 'initial owner key');
  mkdirSync(gateway.config.data_dir, { recursive: true });
  const file = path.join(gateway.config.data_dir, 'initial-owner-key');
  // `mode` applies only when the file is created: a file left over from an earlier install keeps its own.
  if (existsSync(file)) chmodSync(file, 0o600);
  writeFileSync(file, `${key.key}\n`, { mode: 0o600 });
  return key;
}
