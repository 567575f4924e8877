import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { upsertPrincipalSeen } from '../db/repos/principals.js';

/**
 * Notes that the organization acted as (or for) a principal: GET /v1/principals lists every principal
 * with its first and last use. Cheap enough for the run path: one upsert statement. Pass the
 * transaction when already inside one (on SQLite a second writer would wait for the first).
 */
export async function recordPrincipalUse(
  db: Database,
  organizationId: string,
  principal: string,
  now: number,
  transaction?: Transaction,
): Promise<void> {
  await upsertPrincipalSeen(db, organizationId, principal, now, transaction);
}
