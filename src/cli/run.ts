import { Command, CommanderError } from 'commander';
import { approvals } from './commands/approvals/index.js';
import { calls } from './commands/calls/index.js';
import { catalog } from './commands/catalog/index.js';
import { doctor } from './commands/doctor/index.js';
import { keys } from './commands/keys/index.js';
import { mcp } from './commands/mcp/index.js';
import { migrate } from './commands/migrate/index.js';
import { orgs } from './commands/orgs/index.js';
import { redirectUris } from './commands/redirect-uris/index.js';
import { serve } from './commands/serve/index.js';
import { tokens } from './commands/tokens/index.js';
import { webhooks } from './commands/webhooks/index.js';
import { refuseEmptyValues } from './arguments.js';
import { bindInvocation, type Invocation } from './invocation.js';
import { printable } from './output.js';
import { versionText } from './version.js';

/** The program: every command declared (names, arguments, options, help); each loads its work when it runs. */
function program(argv: string[], invocation: Invocation): Command {
  const root = new Command('gateway')
    .description('Self-hosted task gateway: discover, inspect and run third-party tasks with one token')
    .option('--config <file>', 'config file (JSON or YAML) over config/default.json; GATEWAY_* variables override both')
    .option('-V, --version', 'print the version (with --json: {"version": ...})')
    .on('option:version', () => {
      invocation.stdout.write(`${versionText(argv)}\n`);
      throw new CommanderError(0, 'gateway.version', '');
    })
    .addCommand(serve())
    .addCommand(migrate())
    .addCommand(orgs())
    .addCommand(keys())
    .addCommand(tokens())
    .addCommand(redirectUris())
    .addCommand(catalog())
    .addCommand(webhooks())
    .addCommand(calls())
    .addCommand(approvals())
    .addCommand(doctor())
    .addCommand(mcp());
  root.hook('preAction', (_root, actionCommand) => refuseEmptyValues(actionCommand));
  bindInvocation(root, invocation);
  applyUsageRules(root, invocation);
  return root;
}

/**
 * Usage errors (unknown option, bad choice, missing argument) are one stderr line, like every other
 * failure, and exit 2 on every command; help exits 0. Commander throws instead of exiting.
 */
function applyUsageRules(command: Command, invocation: Invocation): void {
  command
    .configureOutput({
      writeOut: (text) => invocation.stdout.write(text),
      writeErr: (text) => invocation.stderr.write(text),
      outputError: (message, write) => write(`${printable(message.trimEnd())} (run with --help for usage)\n`),
    })
    .exitOverride();
  command.commands.forEach((child) => applyUsageRules(child, invocation));
}

/** The process's own streams and environment, as `gateway` runs. */
export function processInvocation(): Invocation {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, exitCode: 0 };
}

/**
 * Runs one gateway command line (the arguments after `gateway`) to its exit code: 0 success, 1 a failure
 * of the work, 2 a usage or configuration error. Every failure is one line on stderr, never a stack.
 * bin/gateway runs it on the process's streams; tests run it in process with their own.
 */
export async function runCli(argv: string[], io: Partial<Omit<Invocation, 'exitCode'>> = {}): Promise<number> {
  const invocation: Invocation = { ...processInvocation(), ...io, exitCode: 0 };
  try {
    await program(argv, invocation).parseAsync(argv, { from: 'user' });
    return invocation.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    // Loaded on failure only: it knows the database's and config's errors, which a plain call never touches.
    const { failureOf } = await import('./errors.js');
    const { message, exitCode } = failureOf(error);
    invocation.stderr.write(`gateway: ${printable(message)}\n`);
    return exitCode;
  }
}
