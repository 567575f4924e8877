import type { Transaction } from 'sequelize';
import type { Database } from '../database.js';

/**
 * One statement on both dialects: inserts the principal on first use, else moves last_seen_at forward
 * (the WHERE keeps an out-of-order older timestamp from moving it back, and skips a useless write).
 */
export async function upsertPrincipalSeen(
  db: Database,
  organizationId: string,
  principal: string,
  now: number,
  transaction?: Transaction,
): Promise<void> {
  await db.execute(
    `INSERT INTO principals (organization_id, principal, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (organization_id, principal)
     DO UPDATE SET last_seen_at = excluded.last_seen_at WHERE principals.last_seen_at < excluded.last_seen_at`,
    [organizationId, principal, now],
    transaction,
  );
}
