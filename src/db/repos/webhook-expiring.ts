import type { Executor, Transaction } from '../database.js';
import type { ConnectionRow } from './connections.js';

/**
 * Active connections whose credential expires within (now, until] and whose current expiry the
 * connection.expiring scan has not examined yet, soonest first.
 */
export async function unexaminedExpiringConnections(db: Executor, now: number, until: number, limit: number): Promise<ConnectionRow[]> {
  return db.select<ConnectionRow>(
    `SELECT * FROM connections
      WHERE status = 'active' AND credential_expires_at > $1 AND credential_expires_at <= $2
        AND (expiring_checked_for IS NULL OR expiring_checked_for <> credential_expires_at)
      ORDER BY credential_expires_at, id
      LIMIT ${Math.floor(limit)}`,
    [now, until],
  );
}

/**
 * Records that the scan examined this connection's current expiry. Conditional, so when several
 * processes scan at once exactly one of them gets true (and announces it).
 */
export async function markExpiryExamined(tx: Transaction, connectionId: string, expiresAt: number): Promise<boolean> {
  const changed = await tx.execute(
    `UPDATE connections SET expiring_checked_for = $1
      WHERE id = $2 AND status = 'active' AND credential_expires_at = $1
        AND (expiring_checked_for IS NULL OR expiring_checked_for <> $1)`,
    [expiresAt, connectionId],
  );
  return changed > 0;
}
