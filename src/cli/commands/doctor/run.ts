import type { Command } from 'commander';
import { runDoctor } from '../../../domain/doctor.js';
import { configFor } from '../../context.js';
import { invocationOf } from '../../invocation.js';
import { print } from '../../output.js';

/** One line per check, its verdict first; exit 0 only when every check passed. */
export async function run(options: { json?: boolean }, command: Command): Promise<void> {
  const checks = await runDoctor((overrides) => configFor(command, overrides));
  const ok = checks.every((check) => check.ok);
  const width = Math.max(...checks.map((check) => check.name.length));
  print(command, !!options.json, { ok, checks }, () =>
    checks.map((check) => `${check.ok ? 'ok  ' : 'fail'}  ${check.name.padEnd(width)}  ${check.detail}`).join('\n'),
  );
  if (!ok) invocationOf(command).exitCode = 1;
}
