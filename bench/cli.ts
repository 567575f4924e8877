/**
 * `npm run bench:cli [-- --rounds 5 --calls 4 --starts 5 --only sqlite|postgres]`
 *
 * What a scripted `gateway` call costs, against a bare `node -e ''` in the same run. Each round runs every
 * command `calls` times in a row inside one `bash -c`, interleaved with the bare node (each round rotates
 * the order), and reads the CPU of those children from bash's `times` builtin: the user and system time
 * of the shell's waited-for children (times(2), the kernel's own accounting of the child processes). A
 * child's CPU is not visible to the parent's `process.cpuUsage()` or `process.resourceUsage()` (those are
 * the parent's own), hence the shell. Per command: the median over rounds of CPU per call, and its ratio
 * to bare node's median. Then `gateway serve` on the same migrated SQLite database with the built-in
 * catalog: wall time from spawning it to its first 204 on /health (polled every 10 ms on a port chosen up
 * front), beside a bare node:http server measured the same way, and to its `listening on` line (printed once its
 * catalog and routes are loaded: it answers /health before). The gateway is compiled into a package of
 * its own (as `npm ci` builds it) and run through its bin/gateway. Writes bench/results/cli-latest.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type Dialect, type TestDatabase } from '../test/support/databases.js';
import { freePort } from '../test/support/process.js';
import { machine } from './procstat.js';
import { dialectsOption, median, numberOption } from './report.js';
import { buildGateway } from './servers.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(projectRoot, 'bench', 'results');

function settings(argv: string[]) {
  return {
    rounds: numberOption(argv, 'rounds', 5),
    calls: numberOption(argv, 'calls', 4),
    starts: numberOption(argv, 'starts', 5),
    dialects: dialectsOption(argv),
  };
}


const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** `times` prints the shell's own user/system time, then its children's: "0m0.312s 0m0.082s". */
function childrenCpuMs(timesOutput: string): number {
  const lines = timesOutput.trim().split('\n');
  const seconds = [...lines[lines.length - 1].matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  return (seconds[0] + seconds[1]) * 1000;
}

/** CPU per call (ms) of `argv` run `calls` times by one shell, its output discarded; a failing call stops the bench. */
function cpuPerCall(argv: string[], env: NodeJS.ProcessEnv, calls: number): number {
  const command = argv.map(quote).join(' ');
  const script = `for i in $(seq ${calls}); do ${command} >/dev/null || exit 97; done; times`;
  const result = spawnSync('bash', ['-c', script], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}):\n${result.stderr}`);
  return childrenCpuMs(result.stdout) / calls;
}

/**
 * Wall milliseconds from spawning `argv` (which listens on `port`) to its first 204 or 200 on /health, and to
 * its stdout saying `listening on` when it `printsListening` (the gateway does once its catalog and routes are
 * loaded; 0 otherwise).
 */
async function msToHealth(argv: string[], port: number, env: NodeJS.ProcessEnv, printsListening = false): Promise<{ health: number; loaded: number }> {
  const started = performance.now();
  const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let loaded = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    if (!loaded && /listening on/.test(chunk.toString())) loaded = performance.now() - started;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = () => {
    if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
    if (performance.now() - started > 60000) throw new Error(`not started within 60 s:\n${stderr}`);
  };
  try {
    let health = 0;
    while (!health) {
      deadline();
      const answered = await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.status, () => 0);
      if (answered === 204 || answered === 200) health = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    while (printsListening && !loaded) {
      deadline();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { health, loaded };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const BARE_HTTP = `require('node:http').createServer((q, s) => { s.statusCode = 204; s.end(); }).listen(Number(process.env.PORT), '127.0.0.1')`;

async function main(): Promise<void> {
  const options = settings(process.argv.slice(2));
  const workDir = mkdtempSync(path.join(tmpdir(), 'gw-bench-cli-'));
  const databases: TestDatabase[] = [];
  try {
    process.stdout.write('compiling the gateway...\n');
    buildGateway(path.join(workDir, 'package'));
    mkdirSync(path.join(workDir, 'package', 'bin'));
    copyFileSync(path.join(projectRoot, 'bin', 'gateway'), path.join(workDir, 'package', 'bin', 'gateway'));
    const gateway = [process.execPath, path.join(workDir, 'package', 'bin', 'gateway')];
    const bare = [process.execPath, '-e', ''];

    const envs = new Map<Dialect, NodeJS.ProcessEnv>();
    for (const dialect of options.dialects) {
      const database = await createTestDatabase(dialect);
      databases.push(database);
      const env = { GATEWAY_DATABASE_URL: database.url, GATEWAY_DATA_DIR: database.dataDir, GATEWAY_LOG__LEVEL: 'warn' };
      for (const args of [['migrate'], ['orgs', 'create', 'acme']]) {
        const done = spawnSync(gateway[0], [...gateway.slice(1), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
        if (done.status !== 0) throw new Error(`gateway ${args.join(' ')} failed:\n${done.stderr}`);
      }
      envs.set(dialect, env);
    }

    const commands: Array<{ name: string; dialect?: Dialect; argv: string[]; env: NodeJS.ProcessEnv }> = [{ name: "node -e ''", argv: bare, env: {} }];
    commands.push({ name: 'gateway --version', argv: [...gateway, '--version'], env: {} });
    for (const [dialect, env] of envs) {
      for (const args of [['keys', 'list', '--json'], ['tokens', 'issue', '--principal', 'user:x', '--json'], ['calls', 'list', '--json']]) {
        commands.push({ name: `gateway ${args.join(' ')}`, dialect, argv: [...gateway, ...args], env });
      }
    }

    const samples = new Map<string, number[]>(commands.map((command) => [`${command.name}|${command.dialect ?? ''}`, []]));
    for (let round = 0; round < options.rounds; round++) {
      const order = commands.map((_, i) => commands[(i + round) % commands.length]);
      for (const command of order) samples.get(`${command.name}|${command.dialect ?? ''}`)!.push(cpuPerCall(command.argv, command.env, options.calls));
      process.stdout.write(`round ${round + 1}/${options.rounds} done\n`);
    }

    const startTimes = { gateway: [] as number[], gatewayLoaded: [] as number[], bare: [] as number[] };
    const sqliteEnv = envs.get('sqlite');
    if (sqliteEnv) {
      for (let start = 0; start < options.starts; start++) {
        const port = await freePort();
        startTimes.bare.push((await msToHealth([process.execPath, '-e', BARE_HTTP], port, { PORT: String(port) })).health);
        const gatewayPort = await freePort();
        const served = await msToHealth([...gateway, 'serve', '--port', String(gatewayPort)], gatewayPort, sqliteEnv, true);
        startTimes.gateway.push(served.health);
        startTimes.gatewayLoaded.push(served.loaded);
      }
    }

    const bareMs = median(samples.get("node -e ''|")!);
    const rows = commands.map((command) => {
      const perCall = median(samples.get(`${command.name}|${command.dialect ?? ''}`)!);
      return { command: command.name, dialect: command.dialect ?? '-', cpu_ms_per_call: Math.round(perCall), x_bare_node: Number((perCall / bareMs).toFixed(1)) };
    });
    const lines = [
      `machine: ${JSON.stringify(machine())}`,
      `settings: ${JSON.stringify(options)}`,
      '',
      '| command | database | CPU per call (median of rounds) | x bare node |',
      '| --- | --- | ---: | ---: |',
      ...rows.map((row) => `| \`${row.command}\` | ${row.dialect} | ${row.cpu_ms_per_call} ms | ${row.x_bare_node}x |`),
    ];
    if (sqliteEnv) {
      lines.push(
        '',
        '| start to first /health answer | median | max |',
        '| --- | ---: | ---: |',
        `| bare node:http server | ${Math.round(median(startTimes.bare))} ms | ${Math.round(Math.max(...startTimes.bare))} ms |`,
        `| \`gateway serve\` (SQLite, built-in catalog, migrated) | ${Math.round(median(startTimes.gateway))} ms | ${Math.round(Math.max(...startTimes.gateway))} ms |`,
        `| \`gateway serve\`: everything loaded (\`listening on\` printed) | ${Math.round(median(startTimes.gatewayLoaded))} ms | ${Math.round(Math.max(...startTimes.gatewayLoaded))} ms |`,
      );
    }
    process.stdout.write(`\n${lines.join('\n')}\n`);
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'cli-latest.json'), `${JSON.stringify({ machine: machine(), options, samples: Object.fromEntries(samples), startTimes, rows }, null, 2)}\n`);
  } finally {
    for (const database of databases) await database.drop().catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
