import type { Command } from 'commander';
import { migrate as applyMigrations, openConfiguredDatabase, openExistingDatabase, schemaState } from '../../../app/gateway.js';
import { configFor } from '../../context.js';
import { print } from '../../output.js';

/** `migrate` sets the database up; `migrate --status` only reads it, and never creates one. */
export async function run(options: { status?: boolean; json?: boolean }, command: Command): Promise<void> {
  const config = configFor(command);
  const db = await (options.status ? openExistingDatabase(config) : openConfiguredDatabase(config));
  try {
    if (options.status) {
      const { applied, pending } = await schemaState(db);
      print(command, !!options.json, { executed: applied, pending }, () => [
        ...applied.map((name) => ({ migration: name, state: 'executed' })),
        ...pending.map((name) => ({ migration: name, state: 'pending' })),
      ]);
    } else {
      const applied = await applyMigrations(db);
      print(command, !!options.json, { applied }, () => (applied.length ? `applied ${applied.join(', ')}` : 'database is up to date'));
    }
  } finally {
    await db.close();
  }
}
