import { PassThrough, Readable } from 'node:stream';
import { expect } from 'chai';
import { createTestDatabase, type Dialect, type TestDatabase } from '../support/databases.js';
import { databaseEnv, runGateway, type CliResult } from '../support/process.js';

/** A stream that keeps what a command writes, as a terminal would show it (never a TTY). */
function capture(): PassThrough & { text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return Object.assign(stream, { text: () => text });
}

/**
 * Runs one gateway command line in this process, through the entry bin/gateway runs (runCli), with its own
 * stdout, stderr and environment (the test process's, with `env` over it, as a spawned command sees it).
 */
export async function gateway(args: string[], env: NodeJS.ProcessEnv = {}, stdin = ''): Promise<CliResult> {
  // Imported as the ES module bin/gateway runs, never a CommonJS copy of it: the commands it loads when
  // they run are ES modules, and must share its classes and state.
  const { runCli } = await import('../../src/cli/run.js');
  const stdout = capture();
  const stderr = capture();
  const code = await runCli(args, { stdout, stderr, stdin: Readable.from([stdin]), env: { ...process.env, ...env } });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export interface CliDatabase {
  /** The environment that points a gateway command at the suite's database. */
  env(): NodeJS.ProcessEnv;
  database(): TestDatabase;
  /** Runs one gateway command in process against the suite's database. */
  gw(...args: string[]): Promise<CliResult>;
  /** The same command as a process of its own, for what only a real process shows (exit status, signals, stdin). */
  spawned(...args: string[]): Promise<CliResult>;
}

/**
 * A fresh database of the suite's own, migrated with `gateway migrate` (only `migrate` and `serve` set a
 * database up), dropped afterwards.
 */
export function useCliDatabase(dialect: Dialect): CliDatabase {
  let database: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv = {};
  before(async function () {
    this.timeout(60000);
    database = await createTestDatabase(dialect);
    env = databaseEnv(database);
    const migrated = await gateway(['migrate'], env);
    expect(migrated.code, migrated.stderr).to.equal(0);
  });
  after(async () => database?.drop());
  return {
    env: () => env,
    database: () => database!,
    gw: (...args) => gateway(args, env),
    spawned: (...args) => runGateway(args, env),
  };
}

/** One line on stderr, nothing on stdout, and the exit code given. */
export function refused(result: CliResult, code: 1 | 2, pattern: RegExp): void {
  expect(result.code, result.stderr).to.equal(code);
  expect(result.stdout).to.equal('');
  expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
  expect(result.stderr.trimEnd()).to.match(pattern);
}
