import { Command } from 'commander';
import { load } from '../../invocation.js';

export const doctor = () =>
  new Command('doctor')
    .description('check the configuration, database, secret key, catalog, public URL and data directory, changing nothing')
    .option('--json', 'print {ok, checks: [{name, ok, detail}]}')
    .action(load(() => import('./run.js')));
