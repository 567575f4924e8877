import { Command } from 'commander';
import { calls } from './commands/calls/index.js';
import { catalog } from './commands/catalog/index.js';
import { doctor } from './commands/doctor.js';
import { keys } from './commands/keys/index.js';
import { mcp } from './commands/mcp/index.js';
import { migrate } from './commands/migrate.js';
import { orgs } from './commands/orgs/index.js';
import { redirectUris } from './commands/redirect-uris/index.js';
import { serve } from './commands/serve.js';
import { tokens } from './commands/tokens/index.js';
import { webhooks } from './commands/webhooks/index.js';
import { refuseEmptyValues } from './arguments.js';
import { handleError } from './errors.js';
import { printVersion } from './version.js';

const program = new Command('gateway')
  .description('Self-hosted task gateway: discover, inspect and run third-party tasks with one token')
  .option('--config <file>', 'config file (JSON or YAML) over config/default.json; GATEWAY_* variables override both')
  .option('-V, --version', 'print the version (with --json: {"version": ...})')
  .on('option:version', () => printVersion(process.argv))
  .addCommand(serve)
  .addCommand(migrate)
  .addCommand(orgs)
  .addCommand(keys)
  .addCommand(tokens)
  .addCommand(redirectUris)
  .addCommand(catalog)
  .addCommand(webhooks)
  .addCommand(calls)
  .addCommand(doctor)
  .addCommand(mcp);

/**
 * Usage errors (unknown option, bad choice, missing argument) are one stderr line, like every other
 * failure, and exit 2 on every command; help exits 0.
 */
function applyUsageRules(command: Command): void {
  command
    .configureOutput({ outputError: (message, write) => write(`${message.trimEnd()} (run with --help for usage)\n`) })
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
  command.commands.forEach(applyUsageRules);
}
applyUsageRules(program);
program.hook('preAction', (_program, actionCommand) => refuseEmptyValues(actionCommand));

program.parseAsync(process.argv).catch(handleError);
