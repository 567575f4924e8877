import { Command } from 'commander';
import { keys } from './commands/keys/index.js';
import { migrate } from './commands/migrate.js';
import { orgs } from './commands/orgs/index.js';
import { serve } from './commands/serve.js';
import { handleError } from './errors.js';

const program = new Command('gateway')
  .description('Self-hosted task gateway: discover, inspect and run third-party tasks with one token')
  .option('--config <file>', 'config file (JSON or YAML) over config/default.json; GATEWAY_* variables override both')
  .showHelpAfterError('(run with --help for usage)')
  .configureOutput({ outputError: (text, write) => write(text) })
  .exitOverride((err) => {
    process.exit(err.exitCode === 0 ? 0 : 2);
  })
  .addCommand(serve)
  .addCommand(migrate)
  .addCommand(orgs)
  .addCommand(keys);

program.parseAsync(process.argv).catch(handleError);
