/**
 * `npm run bench:abuse [-- --rounds 3 --seconds 8 --connections 50 --repeats 10 --load-nice 10 --only sqlite|postgres]`.
 *
 * Isolation of work, measured on a compiled `gateway serve` per dialect, side by side in one run:
 *
 * 1. Memory: findings 1-4 of the review, repeated `repeats` times on a freshly started gateway (25 runs of the
 *    worst input then every page of GET /v1/captures; 3 runs answered just under 10 MiB then a page; the worst
 *    input from 4 clients at once; 4 answers of 10 MiB of tiny objects at once; 100,000 nested arrays, retried
 *    with its idempotency key). Resident memory sampled every 10 ms: its peak, and how soon after the last
 *    request it comes back within 20% of where it started (waiting at most 30 s). Every answer's status is
 *    kept: no 500 may be among them, and every call in the audit must say what its caller got.
 * 2. Isolation: a second organization's member key runs the small weather task at `connections` connections
 *    (autocannon) while GET /health and its GET /v1/me are timed one at a time (a probe process), first alone,
 *    then while the first organization's member key, acting for user:mallory, pages its captures from 4 clients
 *    as fast as they are answered and sends the worst inputs and answers as fast as its per-principal run budget
 *    allows, spread over its minute (an attacker process), interleaved over `rounds` rounds; medians over rounds.
 *    The load generators (the tenant's autocannon and the attacker, processes of their own) run `load-nice` steps
 *    below the bench's CPU priority (default 10; 0 puts them level): in a deployment the load comes from other
 *    machines, and here it would otherwise take its 7-14% of the two cores from the gateway and its database. The
 *    probe, the upstream, the gateway and its database keep the bench's priority. The report says which ran.
 *
 * The gateway runs the default config except `rate_limits.run` (1,000,000, so the tenant's load is not
 * refused: the attacker is held by `rate_limits.per_principal.run`, 120 a minute) and its catalog. Prints the
 * tables and writes bench/results/abuse-latest.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import type { Dialect } from '../test/support/databases.js';
import { projectRoot } from '../test/support/process.js';
import { ANSWER_TASKS, worstInput, writeAbuseCatalog } from './abuse-work.js';
import type { ThroughputResult } from './load.js';
import { cpuBetween, cpuMs, cpuOf, machine } from './procstat.js';
import { dialectsOption, fixed, median, numberOption, table } from './report.js';
import { buildGateway, RUN_TASK, startBenchGateway, startScript, type BenchGateway, type Child } from './servers.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(benchDir, 'results');

/** rate_limits.per_principal.run's default: the attacker's runs are as many as its budget allows. */
const ATTACKER_RUNS_PER_MINUTE = 120;

/** The targets of the isolation-of-work issue. */
const TARGETS = { probeP99Ms: 50, tenantThroughput: 0.8, peakRssMb: 400, rssReturn: 0.2, rssReturnS: 30 };

interface Settings {
  rounds: number;
  seconds: number;
  connections: number;
  repeats: number;
  dialects: Dialect[];
  /** How many steps below the gateway's CPU priority the load generators (the tenant's autocannon, the attacker) run. */
  loadNice: number;
}

function settings(argv: string[]): Settings {
  return {
    rounds: numberOption(argv, 'rounds', 3),
    seconds: numberOption(argv, 'seconds', 8),
    connections: numberOption(argv, 'connections', 50),
    repeats: numberOption(argv, 'repeats', 10),
    dialects: dialectsOption(argv),
    loadNice: numberOption(argv, 'load-nice', 10),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process in MB, from /proc. */
function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : 0;
}

/** A bench/abuse-client.ts process in a role, `nice` steps below this process's CPU priority (0: at it). */
function startClient<T>(role: 'attacker' | 'probe' | 'tenant', clientSettings: object, nice = 0) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(benchDir, 'abuse-client.ts'), role, JSON.stringify(clientSettings)], {
    cwd: projectRoot,
    stdio: [role === 'tenant' ? 'pipe' : 'ignore', 'pipe', 'inherit'],
  });
  if (nice) setPriority(child.pid!, Math.min(19, getPriority() + nice));
  let output = '';
  let onOutput = () => {};
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
    onOutput();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const lastLine = () => JSON.parse(output.trim().split('\n').pop() ?? '{}') as T;
  return {
    pid: child.pid!,
    /** Resolves once the process says it is ready (the tenant's role). */
    ready: new Promise<void>((resolve) => (onOutput = () => output.includes('ready\n') && resolve())),
    /** Lets a ready tenant start its load. */
    start: () => child.stdin?.end('go\n'),
    /** Resolves with the JSON it prints when it ends by itself (the tenant's role). */
    async ended(): Promise<T> {
      await exited;
      return lastLine();
    },
    async stop(): Promise<T> {
      child.kill('SIGTERM');
      await exited;
      return lastLine();
    },
  };
}

interface Tenants {
  attackerKey: string;
  tenantKey: string;
}

/** The attacker is a member key of the first organization; the tenant, a member key of a second one. */
function createTenants(gateway: BenchGateway): Tenants {
  const attackerKey = (JSON.parse(gateway.cli(['keys', 'create', '--role', 'member', '--org', 'default', '--json'])) as { key: string }).key;
  gateway.cli(['orgs', 'create', 'tenant', '--json']);
  const tenantKey = (JSON.parse(gateway.cli(['keys', 'create', '--role', 'member', '--org', 'tenant', '--json'])) as { key: string }).key;
  return { attackerKey, tenantKey };
}

/** One answer as the memory phase keeps it: its status and the call it names, if any. */
interface Answer {
  status: number;
  callId?: string;
}

function callIdOf(text: string): string | undefined {
  const receipt = text.lastIndexOf('"receipt":');
  return /"call_id":"([^"]+)"/.exec(receipt === -1 ? text.slice(0, 2000) : text.slice(receipt))?.[1];
}

interface MemoryResult {
  startMb: number;
  peakMb: number;
  endMb: number;
  /** Seconds after the last request until resident memory was within 20% of the start; null if it never was within 30 s. */
  returnedAfterS: number | null;
  answers: Record<string, number>;
  serverErrors: number;
  auditMismatches: number;
  callsChecked: number;
}

/** Findings 1-4 of the review, `repeats` times, against a gateway just started and warmed up with a few runs. */
async function memoryPhase(gateway: BenchGateway, keys: Tenants, repeats: number): Promise<MemoryResult> {
  const agent = new Agent({ connections: 8, keepAliveTimeout: 60_000 });
  const answers: Answer[] = [];
  const send = async (method: 'GET' | 'POST', route: string, body?: string, headers: Record<string, string> = {}) => {
    const response = await request(`${gateway.server.url}${route}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${keys.attackerKey}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body,
    });
    const text = await response.body.text();
    const answer = { status: response.statusCode, callId: route.endsWith('/run') ? callIdOf(text) : undefined };
    answers.push(answer);
    return { ...answer, text };
  };
  const run = (task: string, body = '{}', headers: Record<string, string> = {}) => send('POST', `/v1/tasks/${task}/run`, body, headers);
  const inParallel = (count: number, work: () => Promise<unknown>) => Promise.all(Array.from({ length: count }, work));
  const everyPage = async () => {
    let cursor: string | null = null;
    do {
      const page = await send('GET', cursor ? `/v1/captures?cursor=${cursor}` : '/v1/captures');
      cursor = page.status === 200 ? (JSON.parse(page.text) as { next_cursor: string | null }).next_cursor : null;
    } while (cursor);
  };
  const worst = worstInput();

  for (let i = 0; i < 20; i++) await run(RUN_TASK, '{"city":"Paris"}');
  answers.length = 0;
  const pid = gateway.server.pid;
  const startMb = rssMb(pid);
  let peakMb = startMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 10);
  try {
    for (let repeat = 0; repeat < repeats; repeat++) {
      // Finding 1: 25 runs of the worst input, then every page of captures; three answers of 10 MiB, then a page.
      for (let batch = 0; batch < 25; batch += 5) await inParallel(5, () => run('builtin.json.extract', worst));
      await everyPage();
      await inParallel(3, () => run(ANSWER_TASKS.big));
      await send('GET', '/v1/captures');
      // Finding 2: the worst input from four clients at once, twice.
      for (let batch = 0; batch < 2; batch++) await inParallel(4, () => run('builtin.json.extract', worst));
      // Finding 3: four answers of about 10 MiB of tiny objects at once.
      await inParallel(4, () => run(ANSWER_TASKS.many));
      // Finding 4: 100,000 nested arrays, then the same request again under its idempotency key.
      const key = { 'idempotency-key': `deep-${repeat}` };
      await run(ANSWER_TASKS.deep, '{}', key);
      await run(ANSWER_TASKS.deep, '{}', key);
    }
  } finally {
    clearInterval(sampler);
    await agent.close();
  }
  peakMb = Math.max(peakMb, rssMb(pid));
  const ended = performance.now();
  let returnedAfterS: number | null = null;
  let endMb = rssMb(pid);
  while (performance.now() - ended < TARGETS.rssReturnS * 1000) {
    endMb = rssMb(pid);
    if (endMb <= startMb * (1 + TARGETS.rssReturn)) {
      returnedAfterS = (performance.now() - ended) / 1000;
      break;
    }
    await sleep(100);
  }

  // Every call named in an answer must say, in the audit, the status its caller got.
  const byCall = new Map<string, number>();
  for (const answer of answers) if (answer.callId) byCall.set(answer.callId, answer.status);
  let auditMismatches = 0;
  const ids = [...byCall.keys()];
  for (let at = 0; at < ids.length; at += 200) {
    const chunk = ids.slice(at, at + 200);
    const placeholders = chunk.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await gateway.select(`SELECT id, outcome, http_status FROM calls WHERE id IN (${placeholders})`, chunk);
    const found = new Map(rows.map((row) => [String(row.id), row]));
    for (const id of chunk) {
      const row = found.get(id);
      if (!row || Number(row.http_status) !== byCall.get(id) || row.outcome === 'pending') auditMismatches++;
    }
  }
  const counted: Record<string, number> = {};
  for (const answer of answers) counted[answer.status] = (counted[answer.status] ?? 0) + 1;
  return {
    startMb,
    peakMb,
    endMb,
    returnedAfterS,
    answers: counted,
    serverErrors: answers.filter((answer) => answer.status === 500).length,
    auditMismatches,
    callsChecked: ids.length,
  };
}

interface Window {
  attacked: boolean;
  tenantPerSecond: number;
  tenantFailed: number;
  serverCpuMs: number;
  healthP50Ms: number;
  healthP99Ms: number;
  meP50Ms: number;
  meP99Ms: number;
  probeFailed: number;
  attacker?: Record<string, number>;
  /** CPU (ms) the bench's other processes used in the window: the load generators, the probe, the upstream. */
  clientsCpuMs: { tenant: number; attacker: number; probe: number; upstream: number };
}

/** The tenant's runs for `seconds`, timed probes beside them, and the attacker if `attacked`. */
async function isolationWindow(gateway: BenchGateway, keys: Tenants, s: Settings, upstreamPid: number, attacked: boolean): Promise<Window> {
  const url = gateway.server.url;
  const tenant = startClient<ThroughputResult & { cpuMs: number }>('tenant', { url, key: keys.tenantKey, route: `/v1/tasks/${RUN_TASK}/run`, connections: s.connections, seconds: s.seconds }, s.loadNice);
  await tenant.ready;
  const attacker = attacked ? startClient<{ counts: Record<string, number> }>('attacker', { url, key: keys.attackerKey, principal: 'user:mallory', clients: 4, runsPerMinute: ATTACKER_RUNS_PER_MINUTE }, s.loadNice) : undefined;
  const probe = startClient<{ health: number[]; me: number[]; failed: number }>('probe', { url, key: keys.tenantKey });
  await sleep(1000);
  const pids = await gateway.serverPids();
  const before = cpuOf(pids);
  const clientsBefore = { attacker: attacker ? cpuMs(attacker.pid) : 0, probe: cpuMs(probe.pid), upstream: cpuMs(upstreamPid) };
  tenant.start();
  const load = await tenant.ended();
  const serverCpuMs = cpuBetween(before, cpuOf([...new Set([...pids, ...(await gateway.serverPids())])]));
  const clientsCpuMs = {
    tenant: load.cpuMs,
    attacker: attacker ? cpuMs(attacker.pid) - clientsBefore.attacker : 0,
    probe: cpuMs(probe.pid) - clientsBefore.probe,
    upstream: cpuMs(upstreamPid) - clientsBefore.upstream,
  };
  const probed = await probe.stop();
  const seen = await attacker?.stop();
  return {
    attacked,
    tenantPerSecond: load.perSecond,
    tenantFailed: load.failed,
    serverCpuMs,
    healthP50Ms: percentile(probed.health, 50),
    healthP99Ms: percentile(probed.health, 99),
    meP50Ms: percentile(probed.me, 50),
    meP99Ms: percentile(probed.me, 99),
    probeFailed: probed.failed,
    attacker: seen?.counts,
    clientsCpuMs,
  };
}

const loadCpuMs = (w: Window) => w.clientsCpuMs.tenant + w.clientsCpuMs.attacker;
const loadCpuShare = (w: Window) => loadCpuMs(w) / (w.serverCpuMs + loadCpuMs(w) + w.clientsCpuMs.probe + w.clientsCpuMs.upstream);

function arrangement(loadNice: number): string {
  const generators = "load generators (the tenant's autocannon, the attacker)";
  const rest = 'the gateway, its database, the probe and the upstream';
  return loadNice ? `${generators} at nice +${loadNice}, ${rest} at the bench's` : `${generators} at the same priority as ${rest}`;
}

async function main(): Promise<void> {
  const s = settings(process.argv.slice(2));
  const started = Date.now();
  const startLoad = machine().load;
  const work = mkdtempSync(path.join(tmpdir(), 'gw-abuse-'));
  const children: Child[] = [];
  const gateways: BenchGateway[] = [];
  try {
    process.stdout.write('compiling the gateway...\n');
    const entry = buildGateway(path.join(work, 'package'));
    const upstream = await startScript('abuse-upstream.ts');
    children.push(upstream);
    const catalog = path.join(work, 'abuse-catalog.json');
    writeAbuseCatalog(catalog, upstream.url);

    const memory: Record<string, MemoryResult> = {};
    const tenants = new Map<BenchGateway, Tenants>();
    for (const dialect of s.dialects) {
      const gateway = await startBenchGateway(entry, dialect, [catalog]);
      gateways.push(gateway);
      tenants.set(gateway, createTenants(gateway));
      process.stdout.write(`${dialect}: findings 1-4, ${s.repeats} times...\n`);
      memory[dialect] = await memoryPhase(gateway, tenants.get(gateway)!, s.repeats);
    }

    const windows: Record<string, Window[]> = Object.fromEntries(s.dialects.map((dialect) => [dialect, []]));
    for (let round = 0; round < s.rounds; round++) {
      for (const gateway of gateways) {
        // Alone first in even rounds, attacked first in odd ones.
        for (const attacked of round % 2 ? [true, false] : [false, true]) {
          windows[gateway.dialect].push(await isolationWindow(gateway, tenants.get(gateway)!, s, upstream.pid, attacked));
        }
      }
      process.stdout.write(`isolation round ${round + 1}/${s.rounds} done (${Math.round((Date.now() - started) / 1000)} s)\n`);
    }

    const isolation = s.dialects.map((dialect) => {
      const alone = windows[dialect].filter((w) => !w.attacked);
      const attacked = windows[dialect].filter((w) => w.attacked);
      const pick = (list: Window[], f: (w: Window) => number) => median(list.map(f));
      return {
        dialect,
        alone: { tenantPerSecond: pick(alone, (w) => w.tenantPerSecond), healthP99Ms: pick(alone, (w) => w.healthP99Ms), meP99Ms: pick(alone, (w) => w.meP99Ms), healthP50Ms: pick(alone, (w) => w.healthP50Ms), meP50Ms: pick(alone, (w) => w.meP50Ms) },
        attacked: { tenantPerSecond: pick(attacked, (w) => w.tenantPerSecond), healthP99Ms: pick(attacked, (w) => w.healthP99Ms), meP99Ms: pick(attacked, (w) => w.meP99Ms), healthP50Ms: pick(attacked, (w) => w.healthP50Ms), meP50Ms: pick(attacked, (w) => w.meP50Ms) },
        tenantRatio: median(attacked.map((w, i) => w.tenantPerSecond / alone[i].tenantPerSecond)),
        gatewayCpuMsPerSecond: { alone: pick(alone, (w) => w.serverCpuMs / s.seconds), attacked: pick(attacked, (w) => w.serverCpuMs / s.seconds) },
        // The load generators' CPU (the tenant's autocannon and the attacker), a second and as a share of all the CPU measured (the gateway and its database, the load, the probe, the upstream).
        loadCpuMsPerSecond: { alone: pick(alone, (w) => loadCpuMs(w) / s.seconds), attacked: pick(attacked, (w) => loadCpuMs(w) / s.seconds) },
        loadCpuShare: { alone: pick(alone, loadCpuShare), attacked: pick(attacked, loadCpuShare) },
        probeCpuMsPerSecond: pick(windows[dialect], (w) => w.clientsCpuMs.probe / s.seconds),
        upstreamCpuMsPerSecond: pick(windows[dialect], (w) => w.clientsCpuMs.upstream / s.seconds),
        // Of the gateway's CPU under attack, the part the tenant's runs took at what they cost alone: the rest is the attacker's.
        tenantCpuShare: median(attacked.map((w, i) => Math.min(1, (w.tenantPerSecond * s.seconds * (alone[i].serverCpuMs / (alone[i].tenantPerSecond * s.seconds))) / w.serverCpuMs))),
        failed: windows[dialect].reduce((sum, w) => sum + w.tenantFailed + w.probeFailed, 0),
        attacker: attacked.map((w) => w.attacker),
      };
    });

    process.stdout.write(`\n${table(
      ['isolation (medians of rounds)', '/health p50', '/health p99', '/v1/me p50', '/v1/me p99', 'tenant runs/s', 'x alone', 'gateway CPU ms/s', 'tenant CPU share', 'load CPU ms/s', 'load CPU share', 'failed'],
      isolation.flatMap((row) => [
        [`${row.dialect}: tenant alone`, fixed(row.alone.healthP50Ms, 1), fixed(row.alone.healthP99Ms, 1), fixed(row.alone.meP50Ms, 1), fixed(row.alone.meP99Ms, 1), fixed(row.alone.tenantPerSecond, 0), '1.00', fixed(row.gatewayCpuMsPerSecond.alone, 0), '1.00', fixed(row.loadCpuMsPerSecond.alone, 0), fixed(row.loadCpuShare.alone, 2), String(row.failed)],
        [`${row.dialect}: under attack`, fixed(row.attacked.healthP50Ms, 1), fixed(row.attacked.healthP99Ms, 1), fixed(row.attacked.meP50Ms, 1), fixed(row.attacked.meP99Ms, 1), fixed(row.attacked.tenantPerSecond, 0), fixed(row.tenantRatio, 2), fixed(row.gatewayCpuMsPerSecond.attacked, 0), fixed(row.tenantCpuShare, 2), fixed(row.loadCpuMsPerSecond.attacked, 0), fixed(row.loadCpuShare.attacked, 2), ''],
      ]),
    )}\n`);
    process.stdout.write(`${arrangement(s.loadNice)}; CPU ms/s of the probe and the upstream: ${isolation.map((row) => `${row.dialect} ${fixed(row.probeCpuMsPerSecond, 0)} and ${fixed(row.upstreamCpuMsPerSecond, 0)}`).join(', ')}\n`);
    for (const row of isolation) process.stdout.write(`${row.dialect} attacker answers per window: ${row.attacker.map((counts) => JSON.stringify(counts)).join(' | ')}\n`);

    process.stdout.write(`\n${table(
      [`findings 1-4 x ${s.repeats}`, 'RSS start MB', 'peak MB', 'back within 20% after', 'end MB', '500s', 'calls checked', 'audit mismatches'],
      s.dialects.map((dialect) => {
        const m = memory[dialect];
        return [dialect, fixed(m.startMb, 0), fixed(m.peakMb, 0), m.returnedAfterS === null ? `not in ${TARGETS.rssReturnS} s` : `${fixed(m.returnedAfterS, 1)} s`, fixed(m.endMb, 0), String(m.serverErrors), String(m.callsChecked), String(m.auditMismatches)];
      }),
    )}\n`);
    for (const dialect of s.dialects) process.stdout.write(`${dialect} answers by status: ${JSON.stringify(memory[dialect].answers)}\n`);

    const targets = [
      ...isolation.flatMap((row) => [
        { target: `${row.dialect}: /health p99 under attack <= ${TARGETS.probeP99Ms} ms`, value: row.attacked.healthP99Ms, met: row.attacked.healthP99Ms <= TARGETS.probeP99Ms },
        { target: `${row.dialect}: tenant GET /v1/me p99 under attack <= ${TARGETS.probeP99Ms} ms`, value: row.attacked.meP99Ms, met: row.attacked.meP99Ms <= TARGETS.probeP99Ms },
        { target: `${row.dialect}: tenant runs under attack >= ${TARGETS.tenantThroughput}x alone`, value: row.tenantRatio, met: row.tenantRatio >= TARGETS.tenantThroughput },
      ]),
      ...s.dialects.flatMap((dialect) => {
        const m = memory[dialect];
        return [
          { target: `${dialect}: peak RSS < ${TARGETS.peakRssMb} MB`, value: m.peakMb, met: m.peakMb < TARGETS.peakRssMb },
          { target: `${dialect}: RSS within 20% of the start within ${TARGETS.rssReturnS} s`, value: m.returnedAfterS, met: m.returnedAfterS !== null },
          { target: `${dialect}: no 500 answer`, value: m.serverErrors, met: m.serverErrors === 0 },
          { target: `${dialect}: every call says what its caller got`, value: m.auditMismatches, met: m.auditMismatches === 0 },
        ];
      }),
    ];
    process.stdout.write(`\n${table(['target', 'measured', 'met'], targets.map((t) => [t.target, fixed(t.value, 2), t.met ? 'yes' : 'NO']))}\n`);

    const host = machine();
    process.stdout.write(`load average at the start ${startLoad}\n`);
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'abuse-latest.json'),
      `${JSON.stringify({ date: new Date(started).toISOString(), durationS: Math.round((Date.now() - started) / 1000), machine: host, startLoad, arrangement: arrangement(s.loadNice), settings: s, isolation, memory, targets, windows }, null, 2)}\n`,
    );
    process.stdout.write(`\n${host.cpus} x ${host.model}, Node ${host.node}, load average at the end ${host.load}; ${Math.round((Date.now() - started) / 1000)} s; bench/results/abuse-latest.json written\n`);
  } finally {
    for (const gateway of gateways) await gateway.stop();
    for (const child of children.reverse()) await child.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
