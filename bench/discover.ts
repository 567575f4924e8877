/**
 * `npm run bench:discover [-- --rounds 5 --seconds 3 --only sqlite --github]`: POST /v1/discover against real `gateway
 * serve` processes loading a generated 10,000-task catalog (bench/discovery.ts) beside the built-in one; `--github` also
 * loads GitHub's imported catalog (test/fixtures/openapi/github-rest.yaml, 1,203 tasks) and sends the fitting half of
 * its labelled jobs among the generated ones. Per round:
 * latency p50/p99 at 1 and at 10 connections, and server CPU per request at 10 connections beside an authenticated
 * GET /v1/me's at 10 connections in the same round. Targets: p99 <= 10 ms at both, CPU per request <= 2x GET /v1/me's.
 * `npm run bench` measures the same rounds (`discoverRound`) among its other paths.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedCatalog, generatedJobs } from './discovery.js';
import { latencyAt, throughput, type Target } from './load.js';
import { cpuBetween, cpuOf, machine } from './procstat.js';
import { dialectsOption, fixed, median, numberOption, table } from './report.js';
import { buildGateway, meTarget, startBenchGateway, type BenchGateway } from './servers.js';
import { githubJobs } from '../test/fixtures/discovery/sets.js';

export const DISCOVER_TARGETS = { p99Ms: 10, cpuVsMe: 2, connections: 10 };

/**
 * The generated catalog, loaded beside the built-in one: its capabilities get a prefix of their own,
 * as capabilities such as currency.convert exist in the built-in catalog with another input schema.
 */
export function writeDiscoveryCatalog(file: string, size: number): void {
  const { providers, tasks } = generatedCatalog(size);
  writeFileSync(file, JSON.stringify({ providers, tasks: tasks.map((task) => ({ ...task, capability: `bench.${task.capability}` })) }));
}

export function discoverTarget(gateway: BenchGateway, jobs: string[]): Target {
  return {
    url: `${gateway.server.url}/v1/discover`,
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.ownerKey}` },
    bodies: jobs.map((task) => JSON.stringify({ task, limit: 5 })),
  };
}

export interface DiscoverRound {
  p50Ms: number;
  p99Ms: number;
  /** At DISCOVER_TARGETS.connections connections. */
  p50MsAtTen: number;
  p99MsAtTen: number;
  cpuMsPerRequest: number;
  meCpuMsPerRequest: number;
  failed: number;
}

/** Server CPU per request of `target` at `connections`, and its latency there. */
async function loaded(gateway: BenchGateway, target: Target, seconds: number) {
  const pids = await gateway.serverPids();
  const before = cpuOf(pids);
  const latency = await latencyAt(target, DISCOVER_TARGETS.connections, seconds);
  const cpu = cpuBetween(before, cpuOf([...new Set([...pids, ...(await gateway.serverPids())])]));
  return { latency, cpuMsPerRequest: cpu / Math.max(latency.requests, 1) };
}

/** One round of discover measurements against one gateway (see the header). */
export async function discoverRound(gateway: BenchGateway, jobs: string[], seconds: number): Promise<DiscoverRound> {
  const target = discoverTarget(gateway, jobs);
  const one = await latencyAt(target, 1, seconds);
  const ten = await loaded(gateway, target, seconds);
  const me = await loaded(gateway, meTarget(gateway), seconds);
  return {
    p50Ms: one.p50Ms,
    p99Ms: one.p99Ms,
    p50MsAtTen: ten.latency.p50Ms,
    p99MsAtTen: ten.latency.p99Ms,
    cpuMsPerRequest: ten.cpuMsPerRequest,
    meCpuMsPerRequest: me.cpuMsPerRequest,
    failed: one.failed + ten.latency.failed + me.latency.failed,
  };
}

/** Medians over rounds, the CPU ratio taken within each round. */
export function summariseDiscover(rounds: DiscoverRound[]) {
  const of = (pick: (round: DiscoverRound) => number) => median(rounds.map(pick));
  return {
    p50Ms: of((r) => r.p50Ms),
    p99Ms: of((r) => r.p99Ms),
    p50MsAtTen: of((r) => r.p50MsAtTen),
    p99MsAtTen: of((r) => r.p99MsAtTen),
    cpuMsPerRequest: of((r) => r.cpuMsPerRequest),
    meCpuMsPerRequest: of((r) => r.meCpuMsPerRequest),
    cpuVsMe: of((r) => r.cpuMsPerRequest / r.meCpuMsPerRequest),
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
  };
}

export type DiscoverSummary = ReturnType<typeof summariseDiscover>;

export const discoverHeader = ['POST /v1/discover (10,000 tasks)', 'p50 ms', 'p99 ms', 'p50 @10', 'p99 @10', 'CPU ms/req @10', 'GET /v1/me CPU', 'x /v1/me', 'failed'];

export const discoverRow = (name: string, s: DiscoverSummary) => [
  name, fixed(s.p50Ms, 3), fixed(s.p99Ms, 3), fixed(s.p50MsAtTen, 3), fixed(s.p99MsAtTen, 3), fixed(s.cpuMsPerRequest, 3), fixed(s.meCpuMsPerRequest, 3), fixed(s.cpuVsMe), String(s.failed),
];

export const discoverTargets = (name: string, s: DiscoverSummary) => [
  { target: `${name}: p99 <= ${DISCOVER_TARGETS.p99Ms} ms`, value: s.p99Ms, met: s.p99Ms <= DISCOVER_TARGETS.p99Ms },
  { target: `${name}: p99 at ${DISCOVER_TARGETS.connections} connections <= ${DISCOVER_TARGETS.p99Ms} ms`, value: s.p99MsAtTen, met: s.p99MsAtTen <= DISCOVER_TARGETS.p99Ms },
  { target: `${name}: CPU/request <= ${DISCOVER_TARGETS.cpuVsMe}x GET /v1/me`, value: s.cpuVsMe, met: s.cpuVsMe <= DISCOVER_TARGETS.cpuVsMe },
];

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const rounds = numberOption(argv, 'rounds', 5);
  const seconds = numberOption(argv, 'seconds', 3);
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-discover-'));
  const gateways: BenchGateway[] = [];
  try {
    process.stdout.write('compiling the gateway...\n');
    const entry = buildGateway(path.join(work, 'package'));
    const catalog = path.join(work, 'bench-discovery-10000.json');
    writeDiscoveryCatalog(catalog, 10_000);
    const withGithub = argv.includes('--github');
    const files = withGithub ? [catalog, fileURLToPath(new URL('../test/fixtures/openapi/github-rest.yaml', import.meta.url))] : [catalog];
    for (const dialect of dialectsOption(argv)) gateways.push(await startBenchGateway(entry, dialect, files));
    const jobs = [...generatedJobs(200), ...(withGithub ? githubJobs('fitting').jobs.map(({ job }) => job) : [])];
    for (const gateway of gateways) await throughput(discoverTarget(gateway, jobs), DISCOVER_TARGETS.connections, 1);
    const measured = new Map<BenchGateway, DiscoverRound[]>(gateways.map((gateway) => [gateway, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const gateway of gateways) measured.get(gateway)!.push(await discoverRound(gateway, jobs, seconds));
      process.stdout.write(`round ${round + 1}/${rounds} done (${Math.round((Date.now() - started) / 1000)} s)\n`);
    }
    const summaries = gateways.map((gateway) => ({ name: `discover (${gateway.dialect}${withGithub ? ', with GitHub' : ''})`, summary: summariseDiscover(measured.get(gateway)!) }));
    process.stdout.write(`\n${table(discoverHeader, summaries.map(({ name, summary }) => discoverRow(name, summary)))}\n`);
    const targets = summaries.flatMap(({ name, summary }) => discoverTargets(name, summary));
    process.stdout.write(`\n${table(['target', 'measured', 'met'], targets.map((t) => [t.target, fixed(t.value, 3), t.met ? 'yes' : 'NO']))}\n`);
    const host = machine();
    process.stdout.write(`\n${host.cpus} x ${host.model}, Node ${host.node}, load average at the end ${host.load}; ${Math.round((Date.now() - started) / 1000)} s\n`);
  } finally {
    for (const gateway of gateways) await gateway.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
