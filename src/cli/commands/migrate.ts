import { Command } from 'commander';
import { migrate as applyMigrations, migrationStatus, openGateway } from '../../app/gateway.js';
import { configFor } from '../context.js';
import { action } from '../errors.js';
import { print } from '../output.js';

export const migrate = new Command('migrate')
  .description('apply pending database migrations, or show them with --status')
  .option('--status', 'list executed and pending migrations without applying any')
  .option('--json', 'print one JSON document')
  .action(
    action(async (options: { status?: boolean; json?: boolean }, command: Command) => {
      const gateway = await openGateway(configFor(command));
      try {
        if (options.status) {
          const status = await migrationStatus(gateway.db);
          print(!!options.json, status, () => [
            ...status.executed.map((name) => ({ migration: name, state: 'executed' })),
            ...status.pending.map((name) => ({ migration: name, state: 'pending' })),
          ]);
        } else {
          const applied = await applyMigrations(gateway.db);
          print(!!options.json, { applied }, () => (applied.length ? `applied ${applied.join(', ')}` : 'database is up to date'));
        }
      } finally {
        await gateway.db.close();
      }
    }),
  );
