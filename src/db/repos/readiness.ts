import type { Executor } from '../database.js';

export interface ActiveConnectionOwner {
  principal: string;
  provider: string;
}

/** Which of `principals` hold an active connection to which provider in the organization (read-only). */
export async function activeConnectionOwners(db: Executor, organizationId: string, principals: string[]): Promise<ActiveConnectionOwner[]> {
  const binds = principals.map((_, position) => `$${position + 2}`).join(', ');
  return db.select<ActiveConnectionOwner>(
    `SELECT DISTINCT principal, provider FROM connections
      WHERE organization_id = $1 AND status = 'active' AND principal IN (${binds})`,
    [organizationId, ...principals],
  );
}
