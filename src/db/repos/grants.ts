import type { Executor } from '../database.js';
import { selectPage, type Condition, type PageQuery } from '../pages.js';
import type { GrantRow } from './connections.js';

/** Grants are written with their connection (repos/connections.ts); this is the listing side. */
export async function pageGrants(
  db: Executor,
  organizationId: string,
  filters: { principal?: string; state?: GrantRow['state'] },
  page: PageQuery,
): Promise<GrantRow[]> {
  const conditions: Condition[] = [['organization_id = ?', organizationId]];
  if (filters.principal !== undefined) conditions.push(['principal = ?', filters.principal]);
  if (filters.state !== undefined) conditions.push(['state = ?', filters.state]);
  return selectPage<GrantRow>(db, 'grants', conditions, page);
}
