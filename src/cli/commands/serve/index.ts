import { Command } from 'commander';
import { load } from '../../invocation.js';

export const serve = () =>
  new Command('serve')
    .description('start the HTTP API (migrates the database first unless --no-migrate)')
    .option('--port <n>', 'port to listen on (default from config, 8080)')
    .option('--host <h>', 'address to bind (default from config, 127.0.0.1)')
    .option('--no-migrate', 'do not apply pending migrations on start')
    .action(load(() => import('./run.js')));
