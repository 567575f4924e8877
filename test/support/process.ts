import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:net';
import { createTestDatabase, type Dialect, type TestDatabase } from './databases.js';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** `npm test` builds before the tests; a build older than any source (a developer's stale dist/) is not used. */
const buildIsFresh = (() => {
  const entry = path.join(projectRoot, 'dist', 'cli', 'main.js');
  return existsSync(entry) && newestMtime(path.join(projectRoot, 'dist')) >= newestMtime(path.join(projectRoot, 'src'));
})();

/**
 * The gateway CLI as a user runs it. `binary` runs bin/gateway (the compiled build when present, as
 * after `npm ci`); otherwise the compiled entry when the build is fresh (it starts twice as fast), else
 * the TypeScript sources, so a test never exercises a stale build.
 */
export function gatewayArgs(args: string[], binary = false): string[] {
  if (binary) return [path.join(projectRoot, 'bin', 'gateway'), ...args];
  if (buildIsFresh) return [path.join(projectRoot, 'dist', 'cli', 'main.js'), ...args];
  return ['--import', 'tsx', path.join(projectRoot, 'src', 'cli', 'main.ts'), ...args];
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one gateway command to completion. */
export function runGateway(args: string[], env: NodeJS.ProcessEnv, options: { binary?: boolean } = {}): Promise<CliResult> {
  return runCommand(process.execPath, gatewayArgs(args, options.binary), env);
}

/** Runs a program from the project root to completion (`npx gateway ...` as a user types it, say). */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningGateway {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `gateway serve --port 0` and resolves once it prints the address it listens on. */
export function startGateway(env: NodeJS.ProcessEnv, extraArgs: string[] = [], options: { binary?: boolean } = {}): Promise<RunningGateway> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, gatewayArgs(['serve', '--port', '0', ...extraArgs], options.binary), {
      cwd: projectRoot,
      env: { ...process.env, GATEWAY_LOG__LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 30000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[1].replace('0.0.0.0', '127.0.0.1'),
          output: () => output,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening:\n${output}`));
    });
  });
}

/** The environment that points a gateway process at a test database. */
export function databaseEnv(database: TestDatabase): NodeJS.ProcessEnv {
  return { GATEWAY_DATA_DIR: database.dataDir, GATEWAY_DATABASE_URL: database.url };
}

/** The owner key the first start on an empty database printed and kept in its data directory. */
export function initialOwnerKey(database: TestDatabase): string {
  return readFileSync(path.join(database.dataDir, 'initial-owner-key'), 'utf8').trim();
}

export interface GatewayDatabase {
  /** The environment that points a gateway process at the suite's database. */
  env(): NodeJS.ProcessEnv;
  database(): TestDatabase;
  /** Runs one gateway command against the suite's database. */
  gw(...args: string[]): Promise<CliResult>;
}

/** Registers the hooks that give a suite of process tests a fresh database of its own, dropped afterwards. */
export function useGatewayDatabase(dialect: Dialect): GatewayDatabase {
  let database: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv = {};
  before(async () => {
    database = await createTestDatabase(dialect);
    env = databaseEnv(database);
  });
  after(async () => database?.drop());
  return { env: () => env, database: () => database!, gw: (...args) => runGateway(args, env) };
}

/** A port free on 127.0.0.1 now, for a process that must be polled before it says where it listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
