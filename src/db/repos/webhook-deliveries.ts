import type { Executor } from '../database.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryListRow {
  id: string;
  event_id: string;
  event: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** The most recent deliveries of one webhook, newest first. */
export async function listRecentDeliveries(db: Executor, webhookId: string, limit: number): Promise<DeliveryListRow[]> {
  return db.select<DeliveryListRow>(
    `SELECT d.id, d.event_id, e.type AS event, d.state, d.attempts, d.last_status, d.last_error, d.created_at, d.updated_at
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
      WHERE d.webhook_id = $1
      ORDER BY d.id DESC
      LIMIT ${Math.floor(limit)}`,
    [webhookId],
  );
}

/** A delivery leased to one worker, with what it needs to send the attempt. */
export interface ClaimedDelivery {
  id: string;
  lease_token: string;
  /** Attempts made before this one. */
  attempts: number;
  url: string;
  /** Encrypted signing secret of the webhook. */
  secret: string;
  event_id: string;
  payload: string;
}

/**
 * Leases up to `limit` due deliveries (pending, next attempt due, no live lease, webhook not deleted)
 * to the caller until `leaseUntil`, in one statement. On Postgres the inner SELECT ... FOR UPDATE SKIP
 * LOCKED makes concurrent workers pass over each other's rows instead of waiting or taking them
 * twice; on SQLite the statement runs under the database's single write lock, so it is atomic. A
 * lease that lapses (its worker died) makes the row claimable again.
 */
export async function claimDueDeliveries(
  db: Executor,
  claim: { now: number; leaseUntil: number; leaseToken: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const ids = await db.select<{ id: string }>(
    `UPDATE webhook_deliveries SET locked_until = $1, lease_token = $2
      WHERE id IN (
        SELECT d.id FROM webhook_deliveries d
         WHERE d.state = 'pending' AND d.next_attempt_at <= $3 AND (d.locked_until IS NULL OR d.locked_until < $3)
           AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.deleted_at IS NULL)
         ORDER BY d.next_attempt_at
         LIMIT ${Math.floor(claim.limit)}${db.dialect === 'postgres' ? ' FOR UPDATE OF d SKIP LOCKED' : ''})
      RETURNING id`,
    [claim.leaseUntil, claim.leaseToken, claim.now],
  );
  if (ids.length === 0) return [];
  const placeholders = ids.map((_, i) => `$${i + 2}`).join(', ');
  return db.select<ClaimedDelivery>(
    `SELECT d.id, d.lease_token, d.attempts, w.url, w.secret, e.id AS event_id, e.payload
       FROM webhook_deliveries d
       JOIN webhooks w ON w.id = d.webhook_id
       JOIN webhook_events e ON e.id = d.event_id
      WHERE d.lease_token = $1 AND d.id IN (${placeholders})`,
    [claim.leaseToken, ...ids.map((row) => row.id)],
  );
}

export interface AttemptRecord {
  state: DeliveryState;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number;
}

/**
 * Records one attempt and releases the lease, only while the caller still holds it: a worker whose
 * lease lapsed (and whose row another worker took over) or whose webhook was deleted meanwhile
 * changes nothing. Returns whether the record was written.
 */
export async function recordAttempt(db: Executor, id: string, leaseToken: string, record: AttemptRecord, now: number): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE webhook_deliveries
        SET state = $1, attempts = attempts + 1, last_status = $2, last_error = $3, next_attempt_at = $4,
            locked_until = NULL, lease_token = NULL, updated_at = $5
      WHERE id = $6 AND lease_token = $7 AND state = 'pending'`,
    [record.state, record.last_status, record.last_error, record.next_attempt_at, now, id, leaseToken],
  );
  return changed > 0;
}

/** Deliveries waiting for an attempt (due or scheduled for a retry); answered from the state index. */
export async function countWaitingDeliveries(db: Executor): Promise<number> {
  const [row] = await db.select<{ n: number | string }>(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'`);
  return Number(row?.n ?? 0);
}
