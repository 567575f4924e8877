import { Command } from 'commander';
import { runDoctor } from '../../domain/doctor.js';
import { configFor } from '../context.js';
import { action } from '../errors.js';
import { print } from '../output.js';

/** One line per check, its verdict first; exit 0 only when every check passed. */
export const doctor = new Command('doctor')
  .description('check the configuration, database, secret key, catalog, public URL and data directory, changing nothing')
  .option('--json', 'print {ok, checks: [{name, ok, detail}]}')
  .action(
    action(async (options: { json?: boolean }, command: Command) => {
      const checks = await runDoctor((overrides) => configFor(command, overrides));
      const ok = checks.every((check) => check.ok);
      const width = Math.max(...checks.map((check) => check.name.length));
      print(!!options.json, { ok, checks }, () =>
        checks.map((check) => `${check.ok ? 'ok  ' : 'fail'}  ${check.name.padEnd(width)}  ${check.detail}`).join('\n'),
      );
      if (!ok) process.exitCode = 1;
    }),
  );
