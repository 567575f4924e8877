import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { destination, pino, type Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ensurePrivateDirectory, openDatabase } from '../db/database.js';
import { migrate } from '../db/migrator.js';
import { loadCatalog } from '../domain/catalog/load.js';
import type { Gateway } from '../domain/gateway.js';
import { createKeyring } from '../domain/secrets.js';

export { DatabaseUnavailable } from '../db/database.js';
export { migrate, migrationStatus } from '../db/migrator.js';

/**
 * The composition root: how `gateway serve`, the admin commands and the tests put a Gateway together from a
 * config (the data directory, the master secret, the logger, the catalog, the database). Nothing below
 * src/app opens files or connections of its own accord.
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

export function createLogger(config: Config): Logger {
  return pino(
    {
      level: config.log.level,
      base: undefined,
      redact: { paths: ['*.authorization', '*.credential', '*.secret', '*.token', '*.key'], censor: '[redacted]' },
    },
    // Asynchronous writes keep the log's syscalls off the request path; pino flushes them when the process exits.
    destination({ dest: 1, sync: false }),
  );
}

/** A Gateway on the configured database, as it is: schema not touched. */
export async function openGateway(config: Config, log: Logger = createLogger(config)): Promise<Gateway> {
  ensurePrivateDirectory(config.data_dir);
  const keyring = createKeyring(masterSecret(config));
  const catalog = loadCatalog(config);
  const db = await openDatabase(config.database.url);
  return { config, db, keyring, catalog, log };
}

/** A Gateway whose database schema is brought up to date first, as every command that acts on data wants it. */
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
