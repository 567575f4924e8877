import type { Database, Executor, Statement } from '../database.js';

/** Counters to count in one statement: one hit in each bucket of one fixed window. */
export interface Counting {
  buckets: string[];
  windowStart: number;
}

/** The statement counting one hit in each bucket and answering every bucket's total (`bucket`, `hits`), binds from `$first` on. */
export function countHitsStatement({ buckets, windowStart }: Counting, first = 1): Statement {
  const values = buckets.map((_, i) => `($${first + i + 1}, $${first}, 1)`).join(', ');
  return {
    sql: `INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES ${values}
     ON CONFLICT (bucket) DO UPDATE SET hits = rate_limit_counters.hits + 1
     RETURNING bucket, hits`,
    bind: [windowStart, ...buckets],
  };
}

/** The totals a counting statement answered, in the order of its buckets. */
export function hitsInOrder(buckets: string[], rows: Array<{ bucket: string; hits: unknown }>): number[] {
  const hits = new Map(rows.map((row) => [row.bucket, Number(row.hits)]));
  return buckets.map((bucket) => hits.get(bucket)!);
}

/**
 * Counts one hit in each bucket of one fixed window and returns the totals in the order given: one
 * statement, safe across instances. Counters are not audit: a crash may lose the last few counts.
 */
export async function countHits(db: Database, counting: Counting): Promise<number[]> {
  const { sql, bind } = countHitsStatement(counting);
  return hitsInOrder(counting.buckets, await db.selectRelaxed<{ bucket: string; hits: number }>(sql, bind));
}

export async function deleteWindowsBefore(db: Executor, windowStart: number): Promise<void> {
  await db.execute('DELETE FROM rate_limit_counters WHERE window_start < $1', [windowStart]);
}
