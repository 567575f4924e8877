import type { Gateway } from './gateway.js';
import { createApiKey, type CreatedApiKey } from './api-keys.js';
import { createOrganization, hasOrganizations } from './organizations.js';

export const DEFAULT_ORGANIZATION = 'default';

/** First run: an empty database gets the organization `default` with one owner key, returned to be shown once. */
export async function bootstrapIfEmpty(gateway: Pick<Gateway, 'db'>): Promise<CreatedApiKey | null> {
  if (await hasOrganizations(gateway)) return null;
  const org = await createOrganization(gateway, DEFAULT_ORGANIZATION);
  return createApiKey(gateway, org.id, 'owner', 'initial owner key');
}
