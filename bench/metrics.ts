/**
 * `npm run bench:metrics [-- --rounds 6 --seconds 3 --connections 20 --only sqlite|postgres]`
 *
 * What metrics cost on the run path. Two `gateway serve` processes, identical but for `metrics.token`,
 * take the same run load (POST /v1/tasks/{id}/run against the loopback upstream) in turn, interleaved
 * over rounds with the order alternating; each round also scrapes the metrics once, as Prometheus would.
 * Per gateway: runs a second and server CPU per run from /proc (Postgres backends included), medians
 * over rounds, and the difference in CPU per run. Then the observer's own work per run, measured in
 * process (the metric updates a run and its HTTP request make). Writes bench/results/metrics-latest.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Gateway } from '../src/domain/gateway.js';
import { createMetrics } from '../src/http/metrics.js';
import type { Dialect } from '../test/support/databases.js';
import { throughput } from './load.js';
import { cpuBetween, cpuOf, machine } from './procstat.js';
import { median, numberOption } from './report.js';
import { buildGateway, runTarget, startBenchGateway, startScript, writeRunCatalog, type BenchGateway, type Child } from './servers.js';

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

function settings(argv: string[]) {
  const only = argv.indexOf('--only');
  return {
    rounds: numberOption(argv, 'rounds', 6),
    seconds: numberOption(argv, 'seconds', 3),
    connections: numberOption(argv, 'connections', 20),
    dialect: (only === -1 ? 'sqlite' : argv[only + 1]) as Dialect,
  };
}

interface Round {
  runsPerSecond: number;
  cpuMsPerRun: number;
  failed: number;
}

async function measure(gateway: BenchGateway, connections: number, seconds: number): Promise<Round> {
  const pids = await gateway.serverPids();
  const before = cpuOf(pids);
  const load = await throughput(runTarget(gateway), connections, seconds);
  const cpu = cpuBetween(before, cpuOf([...new Set([...pids, ...(await gateway.serverPids())])]));
  return { runsPerSecond: load.perSecond, cpuMsPerRun: cpu / load.requests, failed: load.failed };
}

async function scrape(gateway: BenchGateway): Promise<string> {
  const answer = await fetch(`${gateway.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}`);
  return answer.text();
}

/** CPU microseconds of the metric updates one run makes (its HTTP request's and its own), in this process. */
function observerMicrosPerRun(iterations = 200_000): number {
  const metrics = createMetrics({} as Gateway);
  const once = () => {
    metrics.requestFinished('/v1/tasks/{id}/run', 'POST', 200, 1);
    metrics.runFinished({ provider: 'bench-up', outcome: 'hit', totalMs: 1.25, upstreamMs: 0.35 });
  };
  for (let i = 0; i < 20_000; i++) once();
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) once();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / iterations;
}

async function main(): Promise<void> {
  const s = settings(process.argv.slice(2));
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-metrics-'));
  const children: Array<{ stop(): Promise<void> }> = [];
  try {
    process.stdout.write('compiling the gateway...\n');
    const entry = buildGateway(path.join(work, 'package'));
    const upstream: Child = await startScript('upstream.ts');
    children.push(upstream);
    const catalog = path.join(work, 'bench-run.json');
    writeRunCatalog(catalog, upstream.url);
    const off = await startBenchGateway(entry, s.dialect, [catalog]);
    children.push(off);
    const on = await startBenchGateway(entry, s.dialect, [catalog], undefined, { GATEWAY_METRICS__TOKEN: METRICS_TOKEN });
    children.push(on);
    const sides = [
      { name: 'metrics off', gateway: off },
      { name: 'metrics on', gateway: on },
    ];

    process.stdout.write('warming up...\n');
    for (const { gateway } of sides) await throughput(runTarget(gateway), s.connections, 2);

    const rounds: Record<string, Round[]> = { 'metrics off': [], 'metrics on': [] };
    for (let round = 0; round < s.rounds; round++) {
      // Alternate which side goes first, so neither always runs on a machine the other just warmed.
      for (const { name, gateway } of round % 2 ? [...sides].reverse() : sides) rounds[name].push(await measure(gateway, s.connections, s.seconds));
      await scrape(on);
      process.stdout.write(`round ${round + 1}/${s.rounds} done (${Math.round((Date.now() - started) / 1000)} s)\n`);
    }
    const exposition = await scrape(on);
    const hits = Number(/^gateway_runs_total\{provider="bench-up",outcome="hit"\} (\d+)/m.exec(exposition)?.[1] ?? NaN);
    const calls = await on.callCounts();

    const summary = Object.fromEntries(
      Object.entries(rounds).map(([name, r]) => [
        name,
        { runsPerSecond: median(r.map((x) => x.runsPerSecond)), cpuMsPerRun: median(r.map((x) => x.cpuMsPerRun)), failed: r.reduce((n, x) => n + x.failed, 0) },
      ]),
    );
    // Paired per round (both gateways measured back to back), so drifts of the machine's load cancel out.
    const deltas = rounds['metrics on'].map((x, i) => (x.cpuMsPerRun / rounds['metrics off'][i].cpuMsPerRun - 1) * 100);
    const cpuCostPercent = median(deltas);
    const observerMicros = observerMicrosPerRun();
    const observerPercent = (observerMicros / 1000 / summary['metrics on'].cpuMsPerRun) * 100;

    const rows = Object.entries(summary).map(([name, x]) => `${name.padEnd(12)}  ${x.runsPerSecond.toFixed(0).padStart(9)}  ${x.cpuMsPerRun.toFixed(3).padStart(17)}  ${String(x.failed).padStart(6)}`);
    process.stdout.write(
      `\n${'gateway'.padEnd(12)}  ${`runs/s @${s.connections}`.padStart(9)}  ${'server CPU ms/run'.padStart(17)}  ${'failed'.padStart(6)}\n${rows.join('\n')}\n\n` +
        `CPU per run with metrics on: ${cpuCostPercent >= 0 ? '+' : ''}${cpuCostPercent.toFixed(2)}% (median of per-round differences: ${deltas.map((d) => d.toFixed(1)).join(', ')})\n` +
        `observer work per run, in process: ${observerMicros.toFixed(2)} µs = ${observerPercent.toFixed(2)}% of a run's server CPU; target under 3%: ${observerPercent < 3 ? 'met' : 'NOT met'}\n` +
        `runs counted by gateway_runs_total: ${hits}; hits recorded in the calls table: ${calls.hit ?? 0}\n`,
    );

    const host = machine();
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'metrics-latest.json'),
      `${JSON.stringify({ date: new Date(started).toISOString(), machine: host, settings: s, summary, deltas, cpuCostPercent, observerMicros, observerPercent, hits, calls, rounds }, null, 2)}\n`,
    );
    process.stdout.write(`\n${host.cpus} x ${host.model}, Node ${host.node}, load average at the end ${host.load}; ${Math.round((Date.now() - started) / 1000)} s\n`);
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
