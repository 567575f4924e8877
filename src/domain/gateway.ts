import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { destination, pino, type Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ensurePrivateDirectory, openDatabase, type Database } from '../db/database.js';
import { createKeyring, type Keyring } from './secrets.js';
import { loadCatalog } from './catalog/load.js';
import type { Catalog } from './catalog/types.js';

/** One run as it ended: recorded as `hit`, `miss` or `fault`, with its time in the gateway and upstream. */
export interface FinishedRun {
  provider: string;
  outcome: 'hit' | 'miss' | 'fault';
  /** From the validated request to the settled call, in milliseconds. */
  totalMs: number;
  /** The sum of its upstream attempts, in milliseconds (0 for a miss). */
  upstreamMs: number;
}

/**
 * What the run path and the webhook worker report as they finish (the HTTP layer turns it into metrics).
 * Called on the hot path: implementations do constant work and never throw.
 */
export interface GatewayObserver {
  runFinished(run: FinishedRun): void;
  deliveryAttempted(outcome: 'delivered' | 'retrying' | 'failed'): void;
}

/** What every domain operation is handed: config, database, keys, the loaded catalog and the logger. */
export interface Gateway {
  config: Config;
  db: Database;
  keyring: Keyring;
  catalog: Catalog;
  log: Logger;
  /** Set when metrics are enabled (`metrics.token`). */
  observer?: GatewayObserver;
}

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

export async function openGateway(config: Config, log: Logger = createLogger(config)): Promise<Gateway> {
  ensurePrivateDirectory(config.data_dir);
  const keyring = createKeyring(masterSecret(config));
  const catalog = loadCatalog(config);
  const db = await openDatabase(config.database.url);
  return { config, db, keyring, catalog, log };
}
