import type { Database } from '../database.js';

/** Counts one hit in a fixed window and returns the window's total; one statement, safe across instances. */
export async function countHit(db: Database, bucket: string, windowStart: number): Promise<number> {
  const rows = await db.select<{ hits: number }>(
    `INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (bucket) DO UPDATE SET hits = rate_limit_counters.hits + 1
     RETURNING hits`,
    [bucket, windowStart],
  );
  return Number(rows[0].hits);
}

export async function deleteWindowsBefore(db: Database, windowStart: number): Promise<void> {
  await db.execute('DELETE FROM rate_limit_counters WHERE window_start < $1', [windowStart]);
}
