import type { Executor } from '../database.js';

export interface IdempotencyRow {
  organization_id: string;
  idempotency_key: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  status_code: number | null;
  response: string | null;
  created_at: number;
  expires_at: number;
}

/**
 * Claims a key for a new request; an expired claim is taken over. Returns false when a live claim
 * exists (the caller then reads it). One statement, so two instances never both win.
 */
export async function claimIdempotencyKey(
  db: Executor,
  organizationId: string,
  key: string,
  requestHash: string,
  now: number,
  expiresAt: number,
): Promise<boolean> {
  const claimed = await db.select<{ created_at: number }>(
    `INSERT INTO idempotency_keys (organization_id, idempotency_key, request_hash, state, status_code, response, created_at, expires_at)
     VALUES ($1, $2, $3, 'in_flight', NULL, NULL, $4, $5)
     ON CONFLICT (organization_id, idempotency_key) DO UPDATE
        SET request_hash = excluded.request_hash, state = 'in_flight', status_code = NULL, response = NULL,
            created_at = excluded.created_at, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= $4
     RETURNING created_at`,
    [organizationId, key, requestHash, now, expiresAt],
  );
  return claimed.length > 0;
}

export async function findIdempotencyKey(db: Executor, organizationId: string, key: string): Promise<IdempotencyRow | null> {
  const rows = await db.select<IdempotencyRow>(
    'SELECT * FROM idempotency_keys WHERE organization_id = $1 AND idempotency_key = $2',
    [organizationId, key],
  );
  return rows[0] ?? null;
}

export async function completeIdempotencyKey(db: Executor, organizationId: string, key: string, statusCode: number, response: string): Promise<void> {
  await db.execute(
    `UPDATE idempotency_keys SET state = 'done', status_code = $3, response = $4 WHERE organization_id = $1 AND idempotency_key = $2`,
    [organizationId, key, statusCode, response],
  );
}

/** A claim whose request can no longer finish (its process stopped) is released so a retry may run. */
export function releaseStaleClaims(db: Executor, claimedBefore: number): Promise<number> {
  return db.execute(`DELETE FROM idempotency_keys WHERE state = 'in_flight' AND created_at < $1`, [claimedBefore]);
}

export function deleteExpiredKeys(db: Executor, now: number): Promise<number> {
  return db.execute('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
}

export async function releaseIdempotencyKey(db: Executor, organizationId: string, key: string): Promise<void> {
  await db.execute(`DELETE FROM idempotency_keys WHERE organization_id = $1 AND idempotency_key = $2 AND state = 'in_flight'`, [organizationId, key]);
}
