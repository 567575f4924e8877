import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { openDatabase, type Executor } from '../../src/db/database.js';
import type { Dialect, TestDatabase } from './databases.js';

/**
 * The database as bytes at rest, for the checks that are about storage itself: a secret kept only as its
 * hash or ciphertext, nothing in plain text anywhere. Every other test reads and writes through the
 * product's repositories and domain functions; raw rows are read here and nowhere else.
 */

const execFileAsync = promisify(execFile);

/** The rows of `table` whose columns equal `where`, exactly as stored (undecoded: JSON text, 0/1 flags, hashes, ciphertexts). */
export function storedRows<T = Record<string, unknown>>(db: Executor, table: string, where: Record<string, unknown>): Promise<T[]> {
  const columns = Object.keys(where);
  const condition = columns.map((column, i) => `"${column}" = $${i + 1}`).join(' AND ');
  return db.select<T>(`SELECT * FROM "${table}" WHERE ${condition}`, Object.values(where));
}

/** One row as stored, by id (or another unique column); undefined when there is none. */
export async function storedRow<T = Record<string, unknown>>(db: Executor, table: string, id: string, idColumn = 'id'): Promise<T | undefined> {
  return (await storedRows<T>(db, table, { [idColumn]: id }))[0];
}

/** Every row of every table: `pg_dump` of the throwaway Postgres database, or SELECT * of each SQLite table. */
export async function dumpDatabase(dialect: Dialect, database: TestDatabase): Promise<string> {
  if (dialect === 'postgres') {
    const { stdout } = await execFileAsync('pg_dump', ['--data-only', '--no-owner', database.url], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  }
  const db = await openDatabase(database.url);
  try {
    const tables = await db.select<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
    const parts: string[] = [];
    for (const { name } of tables) parts.push(name, JSON.stringify(await db.select(`SELECT * FROM "${name}"`)));
    return parts.join('\n');
  } finally {
    await db.close();
  }
}
