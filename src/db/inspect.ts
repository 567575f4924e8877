import type sqlite3 from 'sqlite3';
import { sqliteStoragePath, type Executor } from './database.js';
import { loadPg, loadSqlite } from './direct.js';
import { migrationNames } from './migrations/index.js';

const MIGRATIONS_TABLE = 'schema_migrations';

/** Why a database could not be read: the driver's code (ECONNREFUSED, 3D000, SQLITE_CANTOPEN...) when it gave one. */
export class DatabaseInspectionFailed extends Error {
  constructor(readonly code: string | undefined) {
    super(`database unreachable${code ? ` (${code})` : ''}`);
  }
}

export interface SchemaState {
  applied: string[];
  pending: string[];
}

async function sqliteApplied(storage: string): Promise<string[]> {
  const driver = await loadSqlite();
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => reject(new DatabaseInspectionFailed((err as { code?: string }).code));
    const db: sqlite3.Database = new driver.Database(storage, driver.OPEN_READONLY, (err) => {
      if (err) return fail(err);
      db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [MIGRATIONS_TABLE], (err, tables) => {
        if (err || !tables.length) return db.close(() => (err ? fail(err) : resolve([])));
        db.all<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`, (err, rows) => db.close(() => (err ? fail(err) : resolve(rows.map((row) => row.name)))));
      });
    });
  });
}

async function postgresApplied(url: string): Promise<string[]> {
  const { Client } = await loadPg();
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [MIGRATIONS_TABLE]);
    if (!rows[0].present) return [];
    return (await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`)).rows.map((row) => row.name);
  } catch (err) {
    throw new DatabaseInspectionFailed((err as { code?: string }).code);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Which migrations the database has and which it lacks, read without writing anything: SQLite opened
 * read-only (no file created, no mode changed), Postgres through one plain connection, and no
 * migrations table created where there is none (umzug's own status would create it).
 */
export async function inspectSchema(url: string): Promise<SchemaState> {
  return stateOf(url.startsWith('sqlite:') ? await sqliteApplied(sqliteStoragePath(url)) : await postgresApplied(url));
}

/** The same, on a database already open: two reads, with neither umzug nor Sequelize loaded. */
export async function schemaState(db: Executor): Promise<SchemaState> {
  const present =
    db.dialect === 'sqlite'
      ? (await db.select(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = $1`, [MIGRATIONS_TABLE])).length > 0
      : (await db.select<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [MIGRATIONS_TABLE]))[0].present;
  return stateOf(present ? (await db.select<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`)).map((row) => row.name) : []);
}

function stateOf(applied: string[]): SchemaState {
  const done = new Set(applied);
  return { applied, pending: migrationNames.filter((name) => !done.has(name)) };
}
