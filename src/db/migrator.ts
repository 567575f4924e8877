import type { QueryInterface } from 'sequelize';
import type { MigrationFn } from 'umzug';
import { sqliteStoragePath, type Database } from './database.js';
import { withFileLock } from './migration-lock.js';
import { migrations } from './migrations/index.js';

export type Migration = MigrationFn<QueryInterface>;

// Any fixed 64-bit number works; it only has to be the same in every gateway process.
const MIGRATION_LOCK_ID = 734_001_122;

/**
 * umzug (and Sequelize under it) loads only where migrations are applied or listed. Tests of a migration take
 * a database up to the one before it with `(await migrator(db)).up({ to })`.
 */
export async function migrator(db: Database) {
  const [{ SequelizeStorage, Umzug }, sequelize] = await Promise.all([import('umzug'), db.sequelize()]);
  return new Umzug({
    migrations,
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/**
 * Applies pending migrations. Concurrent starts wait for each other instead of racing: on Postgres
 * through a transaction-scoped advisory lock, on SQLite through a lock file beside the database.
 */
export async function migrate(db: Database): Promise<string[]> {
  const apply = async () => (await (await migrator(db)).up()).map((m) => m.name);
  if (db.dialect === 'sqlite') {
    const storage = sqliteStoragePath(db.url);
    return storage === ':memory:' ? apply() : withFileLock(`${storage}.migrate.lock`, apply);
  }
  const sequelize = await db.sequelize();
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`, { transaction });
    return apply();
  });
}

export interface MigrationStatus {
  executed: string[];
  pending: string[];
}

export async function migrationStatus(db: Database): Promise<MigrationStatus> {
  const umzug = await migrator(db);
  return {
    executed: (await umzug.executed()).map((m) => m.name),
    pending: (await umzug.pending()).map((m) => m.name),
  };
}
