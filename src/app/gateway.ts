import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { DatabaseUnavailable, describeDatabase, ensurePrivateDirectory, openDatabase, type Database } from '../db/database.js';
import { schemaState } from '../db/inspect.js';
import { migrate } from '../db/migrator.js';
import type { Gateway } from '../domain/gateway.js';
import { createKeyring } from '../domain/secrets.js';

export { DatabaseUnavailable };
export { migrate } from '../db/migrator.js';
export { schemaState } from '../db/inspect.js';

/** A database a command cannot work on as it is (missing, or lacking migrations); the message says what to run. */
export class DatabaseNotReady extends Error {}

/** "the SQLite database /x.db lacks 2 migrations (a, b)". */
export function lacking(url: string, pending: string[]): string {
  return `the ${describeDatabase(url)} lacks ${pending.length} migration${pending.length > 1 ? 's' : ''} (${pending.join(', ')})`;
}

/**
 * The composition root: how `gateway serve`, the admin commands and the tests put a Gateway together from a
 * config (the data directory, the master secret, the logger, the catalog, the database). Nothing below
 * src/app opens files or connections of its own accord. The logger, the catalog and the database drivers
 * are loaded here when a gateway needs them, so a command pays only for what it uses.
 */

/** GATEWAY_SECRET_KEY when set, else a key generated once into the data directory (mode 0600). */
export function masterSecret(config: Config): string {
  if (config.secret_key) return config.secret_key;
  const file = path.join(config.data_dir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.data_dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}

async function createLogger(config: Config): Promise<Logger> {
  const { destination, pino } = await import('pino');
  return pino(
    {
      level: config.log.level,
      base: undefined,
      redact: { paths: ['*.authorization', '*.credential', '*.secret', '*.token', '*.key'], censor: '[redacted]' },
    },
    // Asynchronous writes keep the log's syscalls off the request path, and lines gathered up to 4 KiB (or 100 ms)
    // make one write of several requests' lines: each write is a hop to libuv's thread pool, as costly as a line's
    // own work. pino flushes what is left when the process exits.
    destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 }),
  );
}

/** A Gateway on the configured database, as it is: schema not touched. */
export async function openGateway(config: Config, log?: Logger): Promise<Gateway> {
  const { loadCatalog } = await import('../domain/catalog/load.js');
  const catalog = loadCatalog(config);
  return { ...(await openWithoutCatalog(config, log)), catalog };
}

/**
 * A Gateway but its catalog (the data directory, the master secret, the logger, the database as it is), for
 * `serve`, which listens before it loads the catalog.
 */
export async function openWithoutCatalog(config: Config, log?: Logger): Promise<Omit<Gateway, 'catalog'>> {
  ensurePrivateDirectory(config.data_dir);
  const keyring = createKeyring(masterSecret(config));
  const db = await openDatabase(config.database.url);
  return { config, db, keyring, log: log ?? (await createLogger(config)) };
}

/**
 * The configured database alone, for `migrate`, which sets an installation up as `serve` would: the data
 * directory, the master secret and the database are created when missing.
 */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  ensurePrivateDirectory(config.data_dir);
  masterSecret(config);
  return openDatabase(config.database.url);
}

/** A Gateway whose database schema is brought up to date first. */
export async function openMigratedGateway(config: Config, log?: Logger): Promise<Gateway> {
  const gateway = await openGateway(config, log);
  try {
    await migrate(gateway.db);
  } catch (error) {
    await gateway.db.close();
    throw error;
  }
  return gateway;
}

/**
 * The configured database as it is, for the commands that do not set one up: never created, never migrated.
 * A database that does not exist is a DatabaseNotReady naming it and `gateway migrate`.
 */
export async function openExistingDatabase(config: Config): Promise<Database> {
  return openDatabase(config.database.url, { create: false }).catch((error: unknown) => {
    if (error instanceof DatabaseUnavailable && error.reason === 'missing') {
      throw new DatabaseNotReady(`no ${describeDatabase(config.database.url)}: create it with gateway migrate`);
    }
    throw error;
  });
}

/**
 * A Gateway for an admin command: its organizations, keys, tokens, webhooks and calls, nothing more. The
 * database must exist and be fully migrated (only `migrate` and `serve` create or migrate one); anything
 * else is a DatabaseNotReady saying to run `gateway migrate`. Its logger is silent, and the task catalog is
 * not loaded (none of that work reads it), so the command pays neither for YAML nor for compiling input
 * schemas; reaching for it is a programming error.
 */
export async function openAdminGateway(config: Config): Promise<Gateway> {
  const db = await openExistingDatabase(config);
  try {
    const { pending } = await schemaState(db);
    if (pending.length) throw new DatabaseNotReady(`${lacking(config.database.url, pending)}: run gateway migrate`);
    const keyring = createKeyring(masterSecret(config));
    const { pino } = await import('pino');
    return {
      config,
      db,
      keyring,
      log: pino({ level: 'silent' }),
      get catalog(): never {
        throw new Error('an admin command opened the gateway without its catalog');
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
