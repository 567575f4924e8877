import type { Database, Dialect } from './database.js';

type Lookups = Database['lookups'];

/** SQL for the keys of a grouped lookup, bound as one JSON array: `column IN (keysIn(dialect, '$1'))`. */
export function keysIn(dialect: Dialect, param: string): string {
  return dialect === 'postgres' ? `SELECT json_array_elements_text(${param}::json)` : `SELECT value FROM json_each(${param})`;
}

interface Waiter<R> {
  resolve(row: R | undefined): void;
  reject(error: unknown): void;
}

/**
 * Lookups by key grouped the way writes are committed (direct.ts, groupCommitter): a lookup issued while
 * none runs goes at once, alone; those issued while one is under way go together as the next statement. A
 * burst of requests (after the event loop was busy, say) then costs one round trip per group, not one per
 * request in turn on a few connections, so a request waits at most two round trips whatever is ahead of it.
 * One grouping per Postgres database: `read` answers the rows of the keys it is given, `keyOf` a row's key.
 */
export function groupedLookup<R>(read: (db: Lookups, keys: string[]) => Promise<R[]>, keyOf: (row: R) => string) {
  const perDatabase = new WeakMap<Lookups, (key: string) => Promise<R | undefined>>();

  function grouping(db: Lookups) {
    let queued = new Map<string, Waiter<R>[]>();
    let reading: Promise<void> | null = null;
    async function drain(): Promise<void> {
      while (queued.size) {
        const group = queued;
        queued = new Map();
        try {
          const found = new Map((await read(db, [...group.keys()])).map((row) => [keyOf(row), row]));
          for (const [key, waiters] of group) waiters.forEach((waiter) => waiter.resolve(found.get(key)));
        } catch (error) {
          for (const waiters of group.values()) waiters.forEach((waiter) => waiter.reject(error));
        }
      }
      reading = null;
    }
    return (key: string) =>
      new Promise<R | undefined>((resolve, reject) => {
        const waiters = queued.get(key) ?? [];
        waiters.push({ resolve, reject });
        queued.set(key, waiters);
        reading ??= drain();
      });
  }

  return (db: Pick<Database, 'lookups'>, key: string): Promise<R | undefined> => {
    // SQLite runs the statements queued on its reads connection one after another with no round trip between
    // them: grouping would only make a lookup wait for the answer to the one before it.
    if (db.lookups.dialect === 'sqlite') return read(db.lookups, [key]).then((rows) => rows[0]);
    let lookup = perDatabase.get(db.lookups);
    if (!lookup) perDatabase.set(db.lookups, (lookup = grouping(db.lookups)));
    return lookup(key);
  };
}
