import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { CreatedApiKey } from '../domain/api-keys.js';
import { bootstrapIfEmpty } from '../domain/bootstrap.js';
import type { Gateway } from '../domain/gateway.js';

const KEY_FILE = 'initial-owner-key';

export interface InitialOwnerKey extends CreatedApiKey {
  /** Where the key was written (mode 0600); null when every name it could take already held a key. */
  file: string | null;
  /** The key files found in its way, never overwritten. */
  kept: string[];
}

/** Names the database in a file name: `sqlite-gateway` or `postgres-127.0.0.1-5432-gateway`. */
function databaseLabel(url: string): string {
  let label: string;
  if (url.startsWith('sqlite:')) label = `sqlite-${path.basename(url.slice('sqlite:'.length)).replace(/\.[^.]*$/, '')}`;
  else {
    const parsed = new URL(url);
    label = `postgres-${parsed.hostname}-${parsed.port || '5432'}-${decodeURIComponent(parsed.pathname.slice(1))}`;
  }
  return label.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * Keeps the key in data/initial-owner-key, or, when that file holds the key of another database's
 * first run (database.url was switched), beside it in initial-owner-key.<database>. A key file is
 * never overwritten: it stays until the operator removes it.
 */
function writeKeyFile(config: Config, key: string): { file: string | null; kept: string[] } {
  const dir = config.data_dir;
  const kept: string[] = [];
  for (const file of [path.join(dir, KEY_FILE), path.join(dir, `${KEY_FILE}.${databaseLabel(config.database.url)}`)]) {
    if (existsSync(file)) {
      // A key file left world-readable by an older version is narrowed, but not replaced.
      chmodSync(file, 0o600);
      kept.push(file);
      continue;
    }
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return { file, kept };
  }
  return { file: null, kept };
}

/**
 * First run: an empty database gets the organization `default` with one owner key, which is returned to be
 * printed once and kept in a key file (mode 0600) for scripts.
 */
export async function createInitialOwnerKey(gateway: Pick<Gateway, 'config' | 'db'>): Promise<InitialOwnerKey | null> {
  const key = await bootstrapIfEmpty(gateway);
  return key && { ...key, ...writeKeyFile(gateway.config, key.key) };
}
