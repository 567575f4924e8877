import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase, type Dialect, type TestDatabase } from '../test/support/databases.js';
import { projectRoot } from '../test/support/process.js';
import type { Target } from './load.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

export interface Child {
  process: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/** Spawns node with `args`, sends stdout to `logFile` (or nowhere) and resolves once it prints where it listens. */
function spawnListening(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp, logFile?: string): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    if (logFile) child.stdout!.pipe(createWriteStream(logFile));
    else child.stdout!.resume();
    let seen = '';
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${seen}`)), 120_000);
    const onData = (chunk: Buffer) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        process: child,
        pid: child.pid!,
        url: match[1],
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${seen}`));
    });
  });
}

/** A bench helper script (upstream.ts, proxy.ts) in its own process. */
export function startScript(script: string, args: string[] = []): Promise<Child> {
  return spawnListening(['--import', 'tsx', path.join(benchDir, script), ...args], {}, /listening (\d+)/).then((child) => ({
    ...child,
    url: `http://127.0.0.1:${child.url}`,
  }));
}

/**
 * Compiles the gateway into a package of its own under `dir` (dist/ beside links to config/ and
 * node_modules/), as `npm ci` builds it, without touching the checkout's dist/. The gateway is
 * measured as it runs in production: compiled JavaScript, no TypeScript loader, no source maps.
 * Returns the CLI entry.
 */
export function buildGateway(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const build = spawnSync(process.execPath, [path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', path.join(dir, 'dist')], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  const entry = path.join(dir, 'dist', 'cli', 'main.js');
  if (!existsSync(entry)) throw new Error(`the gateway did not compile:\n${build.stdout}${build.stderr}`);
  if (build.status !== 0) process.stdout.write(`(tsc reported type errors, but emitted the build)\n`);
  copyFileSync(path.join(projectRoot, 'package.json'), path.join(dir, 'package.json'));
  for (const link of ['config', 'node_modules']) symlinkSync(path.join(projectRoot, link), path.join(dir, link));
  return entry;
}

export const RUN_TASK = 'bench-up.weather.now';

/** The benchmark's run: an anonymous data task whose upstream request is exactly the direct path's, and its provider. */
export function runCatalogEntries(upstreamUrl: string) {
  return {
    provider: { slug: 'bench-up', name: 'Bench Upstream', base_url: upstreamUrl, auth: { type: 'none' } },
    task: {
      id: RUN_TASK,
      provider: 'bench-up',
      capability: 'bench.weather.now',
      kind: 'data',
      title: 'Weather now (loopback bench upstream)',
      description: 'Current weather for a city from the loopback benchmark upstream.',
      price_usd: 0,
      input: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
      request: { method: 'GET', path: '/weather/{city}' },
    },
  };
}

/** The benchmark's run through `gateway`'s POST /v1/tasks/{id}/run, with its owner key. */
export function runTarget(gateway: Pick<BenchGateway, 'server' | 'ownerKey'>): Target {
  return {
    url: `${gateway.server.url}/v1/tasks/${RUN_TASK}/run`,
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.ownerKey}` },
    bodies: [JSON.stringify({ city: 'Paris' })],
  };
}

/** An authenticated GET /v1/me with the owner key: the floor runs and discover are compared with. */
export function meTarget(gateway: Pick<BenchGateway, 'server' | 'ownerKey'>): Target {
  return { url: `${gateway.server.url}/v1/me`, headers: { authorization: `Bearer ${gateway.ownerKey}` } };
}

/** A catalog with the benchmark's run alone. */
export function writeRunCatalog(file: string, upstreamUrl: string): void {
  const { provider, task } = runCatalogEntries(upstreamUrl);
  writeFileSync(file, JSON.stringify({ providers: [provider], tasks: [task] }));
}

export interface BenchGateway {
  dialect: Dialect;
  server: Child;
  ownerKey: string;
  /** The server's process and, on Postgres, its database backends: every process whose CPU a run costs. */
  serverPids(): Promise<number[]>;
  /** Calls recorded, by outcome. */
  callCounts(): Promise<Record<string, number>>;
  /** Rows of a query on the gateway's database. */
  select(sql: string, bind?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Runs a gateway command on the gateway's database and config; its standard output. */
  cli(args: string[]): string;
  stop(): Promise<void>;
}

/** The C allocator's settings of the shipped systemd unit: the gateway is measured with the environment it runs with. */
function shippedAllocatorEnvironment(): NodeJS.ProcessEnv {
  const unit = readFileSync(path.join(projectRoot, 'deploy', 'task-gateway.service'), 'utf8');
  return Object.fromEntries([...unit.matchAll(/^Environment=(MALLOC_\w+)=(\S+)$/gm)].map((setting) => [setting[1], setting[2]]));
}

/**
 * A real `gateway serve` process on a fresh database: default config except the catalog files, a run
 * rate limit above what the benchmark sends and `env` (metrics on, for one); access log at the default
 * level, written to a file; the allocator settings of deploy/task-gateway.service.
 */
export async function startBenchGateway(
  entry: string,
  dialect: Dialect,
  catalogFiles: string[],
  profileDir?: string,
  env: NodeJS.ProcessEnv = {},
): Promise<BenchGateway> {
  const database: TestDatabase = await createTestDatabase(dialect);
  const serverEnv: NodeJS.ProcessEnv = {
    ...shippedAllocatorEnvironment(),
    GATEWAY_DATA_DIR: database.dataDir,
    GATEWAY_DATABASE_URL: database.url,
    GATEWAY_CATALOG__FILES: catalogFiles.join(','),
    GATEWAY_RATE_LIMITS__RUN: '1000000',
    ...env,
  };
  const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const server = await spawnListening([...nodeFlags, entry, 'serve', '--port', '0'], serverEnv, /listening on (http:\/\/\S+)/, path.join(database.dataDir, 'gateway.log'));
  const ownerKey = readFileSync(path.join(database.dataDir, 'initial-owner-key'), 'utf8').trim();
  const client = dialect === 'postgres' ? new pg.Client({ connectionString: database.url }) : undefined;
  await client?.connect();
  const select = async (sql: string, bind: unknown[] = []) => {
    if (client) return (await client.query(sql, bind)).rows as Array<Record<string, unknown>>;
    const { openDatabase } = await import('../src/db/database.js');
    const db = await openDatabase(database.url);
    try {
      return await db.select<Record<string, unknown>>(sql, bind);
    } finally {
      await db.close();
    }
  };
  return {
    dialect,
    server,
    ownerKey,
    async serverPids() {
      if (!client) return [server.pid];
      const rows = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      return [server.pid, ...rows.rows.map((row: { pid: number }) => row.pid)];
    },
    select,
    cli(args) {
      const ran = spawnSync(process.execPath, [entry, ...args], { cwd: projectRoot, env: { ...process.env, ...serverEnv }, encoding: 'utf8' });
      if (ran.status !== 0) throw new Error(`gateway ${args.join(' ')} failed: ${ran.stderr}`);
      return ran.stdout;
    },
    async callCounts() {
      const rows = await select('SELECT outcome, COUNT(*) AS n FROM calls GROUP BY outcome');
      return Object.fromEntries(rows.map((row) => [String(row.outcome), Number(row.n)]));
    },
    async stop() {
      await server.stop();
      await client?.end();
      await database.drop();
    },
  };
}
