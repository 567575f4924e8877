import type { Command } from 'commander';
import { migrate as applyMigrations, migrationStatus, openConfiguredDatabase } from '../../../app/gateway.js';
import { configFor } from '../../context.js';
import { print } from '../../output.js';

export async function run(options: { status?: boolean; json?: boolean }, command: Command): Promise<void> {
  const db = await openConfiguredDatabase(configFor(command));
  try {
    if (options.status) {
      const status = await migrationStatus(db);
      print(command, !!options.json, status, () => [
        ...status.executed.map((name) => ({ migration: name, state: 'executed' })),
        ...status.pending.map((name) => ({ migration: name, state: 'pending' })),
      ]);
    } else {
      const applied = await applyMigrations(db);
      print(command, !!options.json, { applied }, () => (applied.length ? `applied ${applied.join(', ')}` : 'database is up to date'));
    }
  } finally {
    await db.close();
  }
}
