import { Command } from 'commander';
import { load } from '../../invocation.js';

export const migrate = () =>
  new Command('migrate')
    .description('apply pending database migrations, or show them with --status')
    .option('--status', 'list executed and pending migrations without applying any')
    .option('--json', 'print one JSON document')
    .action(load(() => import('./run.js')));
