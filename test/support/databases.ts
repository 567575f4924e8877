import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrator.js';

export type Dialect = 'sqlite' | 'postgres';
export const dialects: Dialect[] = ['sqlite', 'postgres'];

/** Where the throwaway Postgres databases are created; the project's machines run one on 127.0.0.1:5432. */
export const adminPostgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminPostgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function postgresUrl(name: string): string {
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const sqliteFile = (dataDir: string) => path.join(dataDir, 'gateway.db');

/** A fresh, empty database (or a copy of `template`): a temporary SQLite file, or a new Postgres database dropped afterwards. */
async function newDatabase(dialect: Dialect, template?: string): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-test-'));
  if (dialect === 'sqlite') {
    if (template) copyFileSync(template, sqliteFile(dataDir));
    return { url: `sqlite:${sqliteFile(dataDir)}`, dataDir, drop: async () => undefined };
  }
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    url: postgresUrl(name),
    dataDir,
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A fresh, empty database: for what happens to a database no gateway has touched yet. */
export function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  return newDatabase(dialect);
}

/**
 * The migrated templates of one test run, made once per dialect before any test file runs (the mocha
 * global fixtures below, loaded through .mocharc) and named to every mocha worker through the environment.
 */
const TEMPLATE_ENV = { sqlite: 'GW_TEST_TEMPLATE_SQLITE', postgres: 'GW_TEST_TEMPLATE_POSTGRES' } as const;

/**
 * A database with every migration applied, as `gateway migrate` leaves it: a copy of the run's migrated
 * template (the SQLite file copied, a Postgres `CREATE DATABASE ... TEMPLATE`), so each suite gets its own
 * without migrating again. Without a template (mocha run without the project's config) it migrates a fresh one.
 */
export async function createMigratedTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const template = process.env[TEMPLATE_ENV[dialect]];
  if (template) return newDatabase(dialect, template);
  const database = await newDatabase(dialect);
  await migrateDatabase(database.url);
  return database;
}

async function migrateDatabase(url: string): Promise<void> {
  const db = await openDatabase(url);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

const templates: TestDatabase[] = [];

/** Mocha global fixture: migrates one template per dialect for the run. */
export async function mochaGlobalSetup(): Promise<void> {
  for (const dialect of dialects) {
    const template = await newDatabase(dialect);
    templates.push(template);
    await migrateDatabase(template.url);
    process.env[TEMPLATE_ENV[dialect]] = dialect === 'sqlite' ? sqliteFile(template.dataDir) : new URL(template.url).pathname.slice(1);
  }
}

/** Mocha global fixture: drops the run's templates. */
export async function mochaGlobalTeardown(): Promise<void> {
  for (const template of templates.splice(0)) {
    await template.drop();
    rmSync(template.dataDir, { recursive: true, force: true });
  }
}
