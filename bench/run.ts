/**
 * `npm run bench [-- --rounds 5 --seconds 3 --profile --no-discover]`.
 *
 * One run measures every path side by side against one loopback upstream, interleaved over rounds,
 * and quotes medians over rounds: (a) the upstream direct, (b) through a bare node:http keep-alive
 * proxy, (c) through POST /v1/tasks/{id}/run of a real `gateway serve` on SQLite and on Postgres, and
 * (d) `GET /v1/me` of the same gateway with the same key: the floor, what any authenticated request of
 * the gateway's stack costs, which the run's targets are set against, and (e) a hapi route calling the
 * upstream through undici with nothing else (bench/hapi-proxy.ts): what a run costs on the stack before it
 * authenticates, validates or writes anything. Per path: latency p50/p99 at 1
 * connection, requests a second at 50 connections, and server CPU per request from /proc (Postgres
 * backends included; per thread too). Then POST /v1/discover over a generated 10,000-task catalog, over
 * HTTP at 1 and 10 connections with its CPU per request beside GET /v1/me's (bench/discover.ts) and
 * in-process (bench/discovery.ts; `--no-discover` leaves both out). The same run and discover jobs also go
 * through the MCP endpoint (POST /v1/mcp tools/call, bench/mcp.ts), compared with REST within each round.
 * Prints tables and writes bench/results/latest.json. `--profile` also writes a CPU profile of each gateway
 * and summarises it (self time by origin and by function).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect } from '../test/support/databases.js';
import { discoverHeader, discoverRound, discoverRow, discoverTarget, discoverTargets as discoverTargetsOf, summariseDiscover, writeDiscoveryCatalog, type DiscoverRound } from './discover.js';
import { benchDiscovery, generatedJobs } from './discovery.js';
import { checkToolCalls, MCP_TARGETS, mcpTarget, type McpComparison } from './mcp.js';
import { latencyAtOne, throughput, type LatencyResult, type Target, type ThroughputResult } from './load.js';
import { cpuBetween, cpuOf, machine, threadCpuBetween, threadCpuOf, type ThreadKind } from './procstat.js';
import { summariseProfile, type ProfileSummary } from './profile.js';
import { dialectsOption, fixed, median, numberOption, table } from './report.js';
import { buildGateway, meTarget, RUN_TASK, runTarget, startBenchGateway, startScript, writeRunCatalog, type BenchGateway, type Child } from './servers.js';

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

interface Settings {
  rounds: number;
  seconds: number;
  connections: number;
  profile: boolean;
  discover: boolean;
  dialects: Dialect[];
}

function settings(argv: string[]): Settings {
  return {
    rounds: numberOption(argv, 'rounds', 5),
    seconds: numberOption(argv, 'seconds', 3),
    connections: numberOption(argv, 'connections', 50),
    profile: argv.includes('--profile'),
    discover: !argv.includes('--no-discover'),
    dialects: dialectsOption(argv),
  };
}

interface Path {
  name: string;
  /** The gateway's dialect, for the gateway's paths: their floor is that gateway's `GET /v1/me`. */
  dialect?: Dialect;
  /** Shown for where the run's cost goes, not compared with the targets: no upstream call behind it. */
  diagnostic?: boolean;
  target: Target;
  /** The processes that serve this path besides the upstream (none for the direct path). */
  serverPids(): Promise<number[]>;
  /** The gateway's own process, whose CPU is also read per thread. */
  gatewayPid?: number;
}

/** Server CPU per request by where it was spent: the gateway's threads, and Postgres's backends. */
type ThreadCpu = Record<ThreadKind | 'postgres', number>;

interface PathRound {
  latency: LatencyResult;
  load: ThroughputResult;
  serverCpuMsPerRequest: number | null;
  threadCpuMsPerRequest: ThreadCpu | null;
  upstreamCpuMsPerRequest: number;
}


async function measure(route: Path, upstream: Child, s: Settings): Promise<PathRound> {
  const latency = await latencyAtOne(route.target, s.seconds);
  const pids = await route.serverPids();
  const before = cpuOf(pids);
  const threadsBefore = route.gatewayPid === undefined ? undefined : threadCpuOf(route.gatewayPid);
  const upstreamBefore = cpuOf([upstream.pid]);
  const load = await throughput(route.target, s.connections, s.seconds);
  const after = cpuOf([...new Set([...pids, ...(await route.serverPids())])]);
  const server = cpuBetween(before, after);
  const upstreamCpu = cpuBetween(upstreamBefore, cpuOf([upstream.pid]));
  let threadCpuMsPerRequest: ThreadCpu | null = null;
  if (threadsBefore) {
    const threads = threadCpuBetween(threadsBefore, threadCpuOf(route.gatewayPid!));
    const gateway = cpuBetween(new Map([[route.gatewayPid!, before.get(route.gatewayPid!)!]]), new Map([[route.gatewayPid!, after.get(route.gatewayPid!)!]]));
    const perRequest = (ms: number) => ms / load.requests;
    threadCpuMsPerRequest = {
      main: perRequest(threads.main),
      other: perRequest(threads.other),
      postgres: perRequest(server - gateway),
    };
  }
  return {
    latency,
    load,
    serverCpuMsPerRequest: pids.length ? server / load.requests : null,
    threadCpuMsPerRequest,
    upstreamCpuMsPerRequest: upstreamCpu / load.requests,
  };
}

/** A path served by `gateway`: its CPU is the gateway's and its Postgres backends', its floor the gateway's `GET /v1/me`. */
function gatewayPath(gateway: BenchGateway, name: string, target: Target, diagnostic = false): Path {
  return { name: `${name} (${gateway.dialect})`, dialect: gateway.dialect, diagnostic, target, serverPids: () => gateway.serverPids(), gatewayPid: gateway.server.pid };
}

const floorName = (dialect: Dialect) => `GET /v1/me (${dialect})`;

function runPath(gateway: BenchGateway): Path {
  return gatewayPath(gateway, 'run', runTarget(gateway));
}

/** The same run as runPath, as an MCP run_task call of each protocol generation. */
function mcpRunPaths(gateway: BenchGateway): Path[] {
  return (['earlier', 'modern'] as const).map((generation) =>
    gatewayPath(gateway, `run via MCP ${generation === 'modern' ? '2026-07-28' : '2025-11-25'}`, mcpTarget(gateway, 'run_task', [{ task_id: RUN_TASK, input: { city: 'Paris' } }], generation)),
  );
}

/** The floor: the same key's `GET /v1/me` (hapi, the auth strategy with its hash and read, a JSON answer). */
function floorPath(gateway: BenchGateway): Path {
  return gatewayPath(gateway, 'GET /v1/me', meTarget(gateway), true);
}

/**
 * The run path's targets, against the floor measured in the same run (issue 27): server CPU per run and runs a
 * second at 50 connections as ratios of `GET /v1/me`'s, p50 at one connection above `GET /v1/me`'s, p99 at one
 * connection above the direct upstream's.
 */
const RUN_TARGETS = { cpuVsFloor: 1.5, throughputVsFloor: 0.6, p50OverFloorMs: 0.8, p99OverDirectMs: 3 };

async function main(): Promise<void> {
  const s = settings(process.argv.slice(2));
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), 'gw-bench-'));
  const children: Array<{ stop(): Promise<void> }> = [];
  const profiles: Record<string, ProfileSummary> = {};
  try {
    process.stdout.write('compiling the gateway...\n');
    const entry = buildGateway(path.join(work, 'package'));
    const upstream = await startScript('upstream.ts');
    children.push(upstream);
    const proxy = await startScript('proxy.ts', [upstream.url]);
    children.push(proxy);
    const hapiProxy = await startScript('hapi-proxy.ts', [upstream.url]);
    const hapiProxyWriting = await startScript('hapi-proxy.ts', [upstream.url, path.join(work, 'hapi-proxy.sqlite')]);
    children.push(hapiProxy, hapiProxyWriting);

    const runCatalog = path.join(work, 'bench-run.json');
    const discoveryCatalog = path.join(work, 'bench-discovery-10000.json');
    writeRunCatalog(runCatalog, upstream.url);
    if (s.discover) writeDiscoveryCatalog(discoveryCatalog, 10_000);
    const gateways: BenchGateway[] = [];
    for (const dialect of s.dialects) {
      const profileDir = s.profile ? path.join(resultsDir, 'profiles', dialect) : undefined;
      if (profileDir) rmSync(profileDir, { recursive: true, force: true });
      const gateway = await startBenchGateway(entry, dialect, s.discover ? [runCatalog, discoveryCatalog] : [runCatalog], profileDir);
      gateways.push(gateway);
      children.push(gateway);
    }

    const upstreamCall: Target = { url: `${upstream.url}/weather/Paris` };
    const paths: Path[] = [
      { name: 'direct', target: upstreamCall, serverPids: async () => [] },
      { name: 'bare proxy', target: { url: `${proxy.url}/weather/Paris` }, serverPids: async () => [proxy.pid] },
      // The run's floor on the stack itself (hapi and undici, then with a run's two writes), against the first gateway's GET /v1/me.
      ...[
        { name: 'hapi proxy', server: hapiProxy },
        { name: 'hapi proxy with two SQLite writes', server: hapiProxyWriting },
      ].map(({ name, server }): Path => ({ name, dialect: s.dialects[0], target: { url: `${server.url}/run`, method: 'POST', bodies: [JSON.stringify({ city: 'Paris' })] }, serverPids: async () => [server.pid] })),
      ...gateways.flatMap((gateway) => [runPath(gateway), ...mcpRunPaths(gateway), floorPath(gateway)]),
      // The gateway's HTTP stack alone, with no authentication: what is under the floor.
      ...gateways.slice(0, 1).map((gateway) => gatewayPath(gateway, 'GET /health', { url: `${gateway.server.url}/health` }, true)),
    ];
    const jobs = generatedJobs(200);
    const discoverTargets = gateways.filter(() => s.discover).flatMap((gateway) => [
      { name: `discover (${gateway.dialect})`, target: discoverTarget(gateway, jobs) },
      { name: `discover via MCP (${gateway.dialect})`, target: mcpTarget(gateway, 'discover_tasks', jobs.map((job) => ({ job, limit: 5 }))) },
    ]);
    // POST /v1/discover at 1 and 10 connections, with its CPU per request beside GET /v1/me's (bench/discover.ts).
    const restDiscoverRounds = new Map<BenchGateway, DiscoverRound[]>(gateways.filter(() => s.discover).map((gateway) => [gateway, []]));

    process.stdout.write(`warming up ${paths.length} paths and ${discoverTargets.length} discover endpoints...\n`);
    for (const { target } of [...paths, ...discoverTargets]) await throughput(target, 10, 1);
    for (const { name, target } of [...paths, ...discoverTargets]) if (name.includes('via MCP')) await checkToolCalls({ ...target, bodies: target.bodies!.slice(0, 3) });

    const rounds: Record<string, PathRound[]> = Object.fromEntries(paths.map((p) => [p.name, []]));
    const discoverRounds: Record<string, LatencyResult[]> = Object.fromEntries(discoverTargets.map((d) => [d.name, []]));
    for (let round = 0; round < s.rounds; round++) {
      // Rotate the order every round so no path always runs first (or right after the heaviest one).
      const order = paths.map((_, i) => paths[(i + round) % paths.length]);
      for (const route of order) rounds[route.name].push(await measure(route, upstream, s));
      for (const { name, target } of discoverTargets) discoverRounds[name].push(await latencyAtOne(target, s.seconds));
      for (const [gateway, restRounds] of restDiscoverRounds) restRounds.push(await discoverRound(gateway, jobs, s.seconds));
      process.stdout.write(`round ${round + 1}/${s.rounds} done (${Math.round((Date.now() - started) / 1000)} s)\n`);
    }

    const inProcess = s.discover ? benchDiscovery(10_000, 5, 400) : null;
    const calls: Record<string, Record<string, number>> = {};
    for (const gateway of gateways) calls[gateway.dialect] = await gateway.callCounts();

    const direct = rounds.direct;
    const proxyRounds = rounds['bare proxy'];
    const summary = paths.map(({ name, dialect, diagnostic, gatewayPid }) => {
      const r = rounds[name];
      const perRound = (pick: (x: PathRound, i: number) => number | null) => {
        const values = r.map(pick).filter((v): v is number => v !== null);
        return values.length ? median(values) : null;
      };
      // Against the floor: the same gateway's GET /v1/me in the same round.
      const floor = dialect === undefined ? undefined : rounds[floorName(dialect)];
      const vsFloor = (pick: (x: PathRound, floorRound: PathRound) => number | null) => (floor ? perRound((x, i) => pick(x, floor[i])) : null);
      const threadCpu = (kind: keyof ThreadCpu) => perRound((x) => x.threadCpuMsPerRequest?.[kind] ?? null);
      return {
        path: name,
        p50Ms: perRound((x) => x.latency.p50Ms),
        p99Ms: perRound((x) => x.latency.p99Ms),
        addedP50Ms: name === 'direct' || diagnostic ? null : perRound((x, i) => x.latency.p50Ms - direct[i].latency.p50Ms),
        addedP99Ms: name === 'direct' || diagnostic ? null : perRound((x, i) => x.latency.p99Ms - direct[i].latency.p99Ms),
        requestsPerSecond: perRound((x) => x.load.perSecond),
        throughputVsProxy: perRound((x, i) => x.load.perSecond / proxyRounds[i].load.perSecond),
        serverCpuMsPerRequest: perRound((x) => x.serverCpuMsPerRequest),
        cpuVsProxy: perRound((x, i) => (x.serverCpuMsPerRequest === null ? null : x.serverCpuMsPerRequest / proxyRounds[i].serverCpuMsPerRequest!)),
        upstreamCpuMsPerRequest: perRound((x) => x.upstreamCpuMsPerRequest),
        p50OverFloorMs: vsFloor((x, f) => x.latency.p50Ms - f.latency.p50Ms),
        throughputVsFloor: vsFloor((x, f) => x.load.perSecond / f.load.perSecond),
        cpuVsFloor: vsFloor((x, f) => (x.serverCpuMsPerRequest === null ? null : x.serverCpuMsPerRequest / f.serverCpuMsPerRequest!)),
        threadCpuMsPerRequest: gatewayPid !== undefined ? { main: threadCpu('main'), other: threadCpu('other'), postgres: threadCpu('postgres') } : null,
        failedRequests: r.reduce((sum, x) => sum + x.latency.failed + x.load.failed, 0),
      };
    });
    const discovery = {
      http: discoverTargets.map(({ name }) => ({
        path: name,
        p50Ms: median(discoverRounds[name].map((x) => x.p50Ms)),
        p99Ms: median(discoverRounds[name].map((x) => x.p99Ms)),
        failedRequests: discoverRounds[name].reduce((sum, x) => sum + x.failed, 0),
      })),
      rest: [...restDiscoverRounds].map(([gateway, restRounds]) => ({ name: `discover (${gateway.dialect})`, summary: summariseDiscover(restRounds) })),
      inProcess,
    };

    // MCP beside REST, paired within each round (same upstream, measured close together).
    const mcpRuns: McpComparison[] = gateways.flatMap(({ dialect }) =>
      ['2025-11-25', '2026-07-28'].map((revision) => {
        const rest = rounds[`run (${dialect})`];
        const mcp = rounds[`run via MCP ${revision} (${dialect})`];
        const cpu = mcp.map((x, i) => (x.serverCpuMsPerRequest === null || !rest[i].serverCpuMsPerRequest ? null : x.serverCpuMsPerRequest / rest[i].serverCpuMsPerRequest!));
        const cpuKnown = cpu.filter((v): v is number => v !== null);
        return { path: `run_task ${revision} vs POST /v1/tasks/{id}/run (${dialect})`, addedP50Ms: median(mcp.map((x, i) => x.latency.p50Ms - rest[i].latency.p50Ms)), cpuRatio: cpuKnown.length ? median(cpuKnown) : null };
      }),
    );
    const mcpDiscover: McpComparison[] = gateways.filter(() => s.discover).map(({ dialect }) => {
      const rest = discoverRounds[`discover (${dialect})`];
      const mcp = discoverRounds[`discover via MCP (${dialect})`];
      return { path: `discover_tasks vs POST /v1/discover (${dialect})`, addedP50Ms: median(mcp.map((x, i) => x.p50Ms - rest[i].p50Ms)), cpuRatio: null };
    });

    for (const gateway of gateways) {
      await gateway.stop();
      children.splice(children.indexOf(gateway), 1);
      if (s.profile) profiles[gateway.dialect] = summariseProfile(path.join(resultsDir, 'profiles', gateway.dialect));
    }

    const gatewayRows = summary.filter((row) => row.cpuVsFloor !== null);
    process.stdout.write(`\n${table(
      ['against the floor, GET /v1/me of the same gateway', `CPU/req x /v1/me @${s.connections}`, `req/s x /v1/me @${s.connections}`, 'p50 - /v1/me p50 ms', 'p99 - direct p99 ms'],
      gatewayRows.map((row) => [row.path, fixed(row.cpuVsFloor), fixed(row.throughputVsFloor), fixed(row.p50OverFloorMs, 3), fixed(row.addedP99Ms ?? null, 3)]),
    )}\n`);
    process.stdout.write(`\n${table(
      ['path', 'p50 ms', 'p99 ms', 'added p50', 'added p99', `req/s @${s.connections}`, 'x proxy', 'server CPU ms/req', 'x proxy', 'failed'],
      summary.map((row) => [
        row.path, fixed(row.p50Ms, 3), fixed(row.p99Ms, 3), fixed(row.addedP50Ms, 3), fixed(row.addedP99Ms, 3),
        fixed(row.requestsPerSecond, 0), fixed(row.throughputVsProxy), fixed(row.serverCpuMsPerRequest, 3), fixed(row.cpuVsProxy), String(row.failedRequests),
      ]),
    )}\n`);
    const micros = (ms: number | null) => fixed(ms === null ? null : ms * 1000, 0);
    process.stdout.write(`\n${table(
      [`server CPU µs/req @${s.connections}, by thread`, 'main thread', 'other threads (SQLite, GC)', 'postgres backends'],
      gatewayRows.flatMap(({ path: name, threadCpuMsPerRequest: t }) => (t ? [[name, micros(t.main), micros(t.other), micros(t.postgres)]] : [])),
    )}\n`);
    if (inProcess) process.stdout.write(`\n${table(
      ['discover (10,000 tasks)', 'p50 ms', 'p99 ms', 'failed'],
      [
        ...discovery.http.map((row) => [row.path.replace(/^discover via MCP/, 'MCP discover_tasks').replace(/^discover/, 'POST /v1/discover'), fixed(row.p50Ms, 3), fixed(row.p99Ms, 3), String(row.failedRequests)]),
        ['rank() in process', fixed(inProcess.p50Ms, 3), fixed(inProcess.p99Ms, 3), '0'],
      ],
    )}\n`);
    if (discovery.rest.length) process.stdout.write(`\n${table(discoverHeader, discovery.rest.map(({ name, summary }) => discoverRow(name, summary)))}\n`);

    process.stdout.write(`\n${table(
      ['MCP beside REST (median of per-round pairs)', 'added p50 ms', 'CPU/call x REST'],
      [...mcpRuns, ...mcpDiscover].map((row) => [row.path, fixed(row.addedP50Ms, 3), fixed(row.cpuRatio)]),
    )}\n`);

    const { cpuVsFloor, throughputVsFloor, p50OverFloorMs, p99OverDirectMs } = RUN_TARGETS;
    const targets = summary
      .filter((row) => row.path.startsWith('run ('))
      .flatMap((row) => [
        { target: `${row.path}: CPU/request <= ${cpuVsFloor}x GET /v1/me`, value: row.cpuVsFloor, met: row.cpuVsFloor! <= cpuVsFloor },
        { target: `${row.path}: throughput >= ${throughputVsFloor}x GET /v1/me`, value: row.throughputVsFloor, met: row.throughputVsFloor! >= throughputVsFloor },
        { target: `${row.path}: p50 <= GET /v1/me p50 + ${p50OverFloorMs} ms`, value: row.p50OverFloorMs, met: row.p50OverFloorMs! <= p50OverFloorMs },
        { target: `${row.path}: p99 <= direct p99 + ${p99OverDirectMs} ms`, value: row.addedP99Ms, met: row.addedP99Ms! <= p99OverDirectMs },
      ])
      .concat(discovery.http.filter((row) => row.path.includes('via MCP')).map((row) => ({ target: `${row.path}: p99 <= 10 ms`, value: row.p99Ms, met: row.p99Ms <= 10 })))
      .concat(discovery.rest.flatMap(({ name, summary }) => discoverTargetsOf(name, summary)))
      .concat(
        mcpRuns.flatMap((row) => [
          { target: `${row.path}: added p50 <= ${MCP_TARGETS.addedP50Ms} ms`, value: row.addedP50Ms, met: row.addedP50Ms <= MCP_TARGETS.addedP50Ms },
          { target: `${row.path}: CPU/call <= ${MCP_TARGETS.cpuRatio}x`, value: row.cpuRatio, met: row.cpuRatio !== null && row.cpuRatio <= MCP_TARGETS.cpuRatio },
        ]),
        mcpDiscover.map((row) => ({ target: `${row.path}: added p50 <= ${MCP_TARGETS.discoverAddedP50Ms} ms`, value: row.addedP50Ms, met: row.addedP50Ms <= MCP_TARGETS.discoverAddedP50Ms })),
      );
    process.stdout.write(`\n${table(['target', 'measured', 'met'], targets.map((t) => [t.target, fixed(t.value, 3), t.met ? 'yes' : 'NO']))}\n`);
    process.stdout.write(`\ncalls recorded: ${Object.entries(calls).map(([dialect, counts]) => `${dialect} ${JSON.stringify(counts)}`).join('; ')}\n`);
    for (const [dialect, profile] of Object.entries(profiles)) {
      process.stdout.write(`\nprofile of the ${dialect} gateway (${profile.totalMs} ms of main-thread samples, idle left out), self time by origin:\n`);
      for (const entry of profile.byOrigin) process.stdout.write(`  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.origin}\n`);
      process.stdout.write(`by function:\n`);
      for (const entry of profile.byFunction) process.stdout.write(`  ${entry.percent.toFixed(1).padStart(5)}%  ${entry.frame}\n`);
    }

    const host = machine();
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'latest.json'),
      `${JSON.stringify({ date: new Date(started).toISOString(), durationS: Math.round((Date.now() - started) / 1000), machine: host, settings: s, summary, discovery, mcp: { runs: mcpRuns, discover: mcpDiscover }, targets, calls, rounds, discoverRounds, profiles }, null, 2)}\n`,
    );
    process.stdout.write(`\n${host.cpus} x ${host.model}, Node ${host.node}, load average at the end ${host.load}; ${Math.round((Date.now() - started) / 1000)} s; bench/results/latest.json written\n`);
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
