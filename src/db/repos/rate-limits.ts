import type { Database, Executor } from '../database.js';

/**
 * Counts one hit in each bucket of one fixed window and returns the totals in the order given: one
 * statement, safe across instances. Counters are not audit: a crash may lose the last few counts.
 */
export async function countHits(db: Database, buckets: string[], windowStart: number): Promise<number[]> {
  const values = buckets.map((_, i) => `($${i + 2}, $1, 1)`).join(', ');
  const rows = await db.selectRelaxed<{ bucket: string; hits: number }>(
    `INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES ${values}
     ON CONFLICT (bucket) DO UPDATE SET hits = rate_limit_counters.hits + 1
     RETURNING bucket, hits`,
    [windowStart, ...buckets],
  );
  const hits = new Map(rows.map((row) => [row.bucket, Number(row.hits)]));
  return buckets.map((bucket) => hits.get(bucket)!);
}

export async function deleteWindowsBefore(db: Executor, windowStart: number): Promise<void> {
  await db.execute('DELETE FROM rate_limit_counters WHERE window_start < $1', [windowStart]);
}
