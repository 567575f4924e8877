/**
 * The clients of `npm run bench:abuse`, each in its own process so the load they make is not the measuring
 * process's. `node --import tsx bench/abuse-client.ts <role> <json settings>`; runs until SIGTERM, then prints
 * one JSON line with what it saw.
 *
 * - `attacker`: `clients` loops reading GET /v1/captures page after page (following the cursor) as fast as
 *   they are answered, and between pages sending in turn the worst runs the limits allow (a builtin.json.extract
 *   of about 1 MiB and 100,000 values whose output is the whole document, runs whose upstream answers just under
 *   10 MiB, about 10 MiB of tiny objects, or 100,000 nested arrays), as many as `runsPerMinute` (its run budget)
 *   spread evenly over the minute. Prints the answers counted by status.
 * - `probe`: GET /health and GET /v1/me one after the other, one at a time; prints every response time (ms).
 * - `tenant`: the tenant's load, `connections` autocannon connections running a run route for `seconds`. Prints
 *   `ready` once loaded, starts on a line on its standard input, then prints its runs a second and the CPU
 *   (ms) it used while it ran. A process of its own so that it can run at a priority of its own (`--load-nice`).
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ANSWER_TASKS, worstInput } from './abuse-work.js';
import { throughput } from './load.js';

interface Settings {
  url: string;
  key: string;
  /** attacker: the principal the attacker's runs act for (its per-principal budget bounds them). */
  principal?: string;
  clients?: number;
  /** attacker: the runs its budget allows a minute, spread evenly across its clients. */
  runsPerMinute?: number;
  /** tenant: the route it runs (POST, a city as its body), autocannon's connections and how long it runs. */
  route?: string;
  connections?: number;
  seconds?: number;
}

const role = process.argv[2];
const settings = JSON.parse(process.argv[3]) as Settings;
const agent = new Agent({ connections: (settings.clients ?? 1) + 1, keepAliveTimeout: 60_000 });
let stopping = false;
process.on('SIGTERM', () => (stopping = true));

async function send(method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await request(`${settings.url}${path}`, {
    method,
    dispatcher: agent,
    headers: { authorization: `Bearer ${settings.key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  return response;
}

async function attacker(): Promise<void> {
  const counts: Record<string, number> = {};
  const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);
  const worst = worstInput();
  const principal: Record<string, string> = settings.principal ? { 'svc-principal': settings.principal } : {};
  const runs: Array<[string, string]> = [
    ['builtin.json.extract', worst],
    [ANSWER_TASKS.big, '{}'],
    [ANSWER_TASKS.many, '{}'],
    [ANSWER_TASKS.deep, '{}'],
  ];
  let cursor: string | null = null;
  const clients = settings.clients ?? 4;
  const runEveryMs = (60_000 * clients) / (settings.runsPerMinute ?? 120);
  const loop = async (client: number) => {
    let nextRun = performance.now() + (client * runEveryMs) / clients;
    for (let turn = client; !stopping; ) {
      try {
        if (performance.now() >= nextRun) {
          nextRun += runEveryMs;
          const [task, body] = runs[turn++ % runs.length];
          const run = await send('POST', `/v1/tasks/${task}/run`, body, principal);
          count(`run ${run.statusCode}`);
          await run.body.dump({ limit: Number.POSITIVE_INFINITY });
        }
        const page = await send('GET', cursor ? `/v1/captures?cursor=${cursor}` : '/v1/captures');
        count(`list ${page.statusCode}`);
        const text = await page.body.text();
        const next = /"next_cursor":("[^"]*"|null)\}$/.exec(text);
        cursor = next ? (JSON.parse(next[1]) as string | null) : null;
      } catch (error) {
        count(`error ${(error as { code?: string }).code ?? 'unknown'}`);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, client) => loop(client)));
  process.stdout.write(`${JSON.stringify({ counts })}\n`);
}

async function probe(): Promise<void> {
  const health: number[] = [];
  const me: number[] = [];
  let failed = 0;
  while (!stopping) {
    for (const [path, times] of [['/health', health], ['/v1/me', me]] as const) {
      const started = performance.now();
      const response = await send('GET', path);
      await response.body.dump();
      if (response.statusCode >= 300) failed++;
      times.push(performance.now() - started);
    }
  }
  process.stdout.write(`${JSON.stringify({ health, me, failed })}\n`);
}

async function tenant(): Promise<void> {
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.pause();
  const cpu = process.cpuUsage();
  const result = await throughput(
    { url: `${settings.url}${settings.route}`, method: 'POST', headers: { authorization: `Bearer ${settings.key}` }, bodies: ['{"city":"Paris"}'] },
    settings.connections ?? 50,
    settings.seconds ?? 8,
  );
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${JSON.stringify({ ...result, cpuMs: (used.user + used.system) / 1000 })}\n`);
}

if (role === 'attacker') await attacker();
else if (role === 'probe') await probe();
else if (role === 'tenant') await tenant();
else throw new Error(`unknown role ${role}`);
await agent.close();
