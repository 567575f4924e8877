import type { Executor } from './database.js';

/** Which page of a keyset list: the rows past `afterId` (the last row of the page before), at most `size` of them. */
export interface PageQuery {
  afterId?: string;
  size: number;
}

/** A condition with `?` placeholders and their values, e.g. ['principal = ?', 'user:ada']. */
export type Condition = [string, ...unknown[]];

/** Joins conditions with AND and numbers the placeholders `$1, $2...` so one SQL text serves both dialects. */
export function whereClause(conditions: Condition[], bind: unknown[] = []): { sql: string; bind: unknown[] } {
  const parts = conditions.map(([sql, ...values]) => {
    let next = 0;
    return sql.replace(/\?/g, () => {
      bind.push(values[next++]);
      return `$${bind.length}`;
    });
  });
  return { sql: parts.length ? ` WHERE ${parts.join(' AND ')}` : '', bind };
}

/** Newest-first keyset page by time-ordered id; returns one row beyond the page size when there is more. */
export async function selectPage<T>(
  db: Executor,
  table: string,
  conditions: Condition[],
  { afterId, size }: PageQuery,
): Promise<T[]> {
  const all = afterId === undefined ? conditions : [...conditions, ['id < ?', afterId] as Condition];
  const { sql, bind } = whereClause(all);
  return db.select<T>(`SELECT * FROM ${table}${sql} ORDER BY id DESC LIMIT ${size + 1}`, bind);
}
