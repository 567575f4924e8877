/**
 * `npm run bench:profile [-- --seconds 8 --connections 50 --warm-up 1 --only sqlite|postgres --path run|mcp|mcp-2026|discover|me]`
 *
 * A CPU profile of a compiled `gateway serve` under one path's load alone: per dialect, a gateway started
 * with `--cpu-prof` (bench/servers.ts), a short warm-up, then the path at `connections` for `seconds`:
 * POST /v1/tasks/{id}/run (`run`, the default), or the same run as an MCP `run_task` on 2025-11-25 (`mcp`)
 * or 2026-07-28 (`mcp-2026`); POST /v1/discover with bench:discover's catalog of 10,000 tasks and its jobs (`discover`);
 * an authenticated GET /v1/me (`me`). Prints the main thread's self time during the load alone, per request, by origin
 * and by function (bench/profile.ts); the profiles stay in bench/results/profiles/<dialect>/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverTarget, writeDiscoveryCatalog } from './discover.js';
import { generatedJobs } from './discovery.js';
import { throughput, type Target } from './load.js';
import { mcpTarget, type Generation } from './mcp.js';
import { machine } from './procstat.js';
import { summariseProfile } from './profile.js';
import { dialectsOption, numberOption } from './report.js';
import { buildGateway, meTarget, RUN_TASK, runTarget, startBenchGateway, startScript, writeRunCatalog, type BenchGateway } from './servers.js';

const argv = process.argv.slice(2);
const seconds = numberOption(argv, 'seconds', 8);
const connections = numberOption(argv, 'connections', 50);
// discover's first request loads the word vectors and English model and builds the index (seconds): kept out of the load.
const warmUpSeconds = numberOption(argv, 'warm-up', 1);
const runTaskCall = (generation: Generation) => (gateway: BenchGateway) => mcpTarget(gateway, 'run_task', [{ task_id: RUN_TASK, input: { city: 'Paris' } }], generation);
const targets: Record<string, (gateway: BenchGateway) => Target> = {
  run: runTarget,
  mcp: runTaskCall('earlier'),
  'mcp-2026': runTaskCall('modern'),
  discover: (gateway) => discoverTarget(gateway, generatedJobs(200)),
  me: meTarget,
};
const pathAt = argv.indexOf('--path');
const targetOf = targets[pathAt === -1 ? 'run' : argv[pathAt + 1]];
if (!targetOf) throw new Error(`--path is one of ${Object.keys(targets).join(', ')}`);
const profilesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'profiles');
const work = mkdtempSync(path.join(tmpdir(), 'gw-profile-'));
try {
  const entry = buildGateway(path.join(work, 'package'));
  const upstream = await startScript('upstream.ts');
  try {
    const catalog = path.join(work, 'bench-catalog.json');
    if (targetOf === targets.discover) writeDiscoveryCatalog(catalog, 10_000);
    else writeRunCatalog(catalog, upstream.url);
    for (const dialect of dialectsOption(argv)) {
      const profileDir = path.join(profilesDir, dialect);
      rmSync(profileDir, { recursive: true, force: true });
      const gateway = await startBenchGateway(entry, dialect, [catalog], profileDir);
      const target = targetOf(gateway);
      const now = () => Number(process.hrtime.bigint() / 1000n);
      let load;
      let window;
      try {
        await throughput(target, 10, warmUpSeconds);
        const fromMicros = now();
        load = await throughput(target, connections, seconds);
        window = { fromMicros, toMicros: now() };
      } finally {
        await gateway.stop();
      }
      // The load's samples alone: neither the start (modules, catalog) nor the warm-up.
      const profile = summariseProfile(profileDir, 30, window);
      const perRequest = (percent: number) => `${((profile.totalMs * percent) / 100 / Math.max(load.requests, 1) * 1000).toFixed(1).padStart(6)} µs`;
      process.stdout.write(`\n${dialect}: ${load.requests} requests (${Math.round(load.perSecond)} a second, ${load.failed} failed); ${profile.totalMs} ms of main-thread samples during the load, idle left out (${perRequest(100)} a request)\nself time by origin, share and per request:\n`);
      for (const entry of profile.byOrigin) process.stdout.write(`  ${entry.percent.toFixed(1).padStart(5)}% ${perRequest(entry.percent)}  ${entry.origin}\n`);
      process.stdout.write('by function:\n');
      for (const entry of profile.byFunction) process.stdout.write(`  ${entry.percent.toFixed(1).padStart(5)}% ${perRequest(entry.percent)}  ${entry.frame}\n`);
    }
  } finally {
    await upstream.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`\n${JSON.stringify(machine())}\n`);
