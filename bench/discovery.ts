/**
 * Discovery timing and memory on a generated catalog (targets: p99 <= 10 ms, index build under 5 s at 10,000
 * tasks, and at most 150 MB resident memory added by the word vectors and the English model).
 *
 *   node --expose-gc --import tsx bench/discovery.ts [tasks=10000] [rounds=9] [jobs per round=1000]
 *
 * Prints the resident memory the word vectors and English model add and how long they take to load, the index build time, the heap the index takes and p50/p99 of the scoring call (`rank`, what a request costs once the
 * index is built), as medians over rounds. `writeGeneratedCatalog` and `generatedJobs` let the HTTP benchmark load the same
 * catalog through `catalog.files` and send the same jobs to POST /v1/discover.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog } from '../src/domain/catalog/load.js';
import { buildIndex, rank } from '../src/domain/discovery/engine.js';
import { readJob } from '../src/domain/discovery/read.js';
import { wordVectors } from '../src/domain/discovery/similarity.js';

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'send', 'search', 'convert', 'archive', 'share', 'schedule', 'export'];
const NOUNS = [
  'invoice', 'customer', 'order', 'ticket', 'message', 'channel', 'file', 'folder', 'event', 'calendar', 'contact', 'lead',
  'deal', 'issue', 'repository', 'branch', 'commit', 'release', 'payment', 'refund', 'subscription', 'product', 'price',
  'shipment', 'parcel', 'route', 'station', 'flight', 'hotel', 'booking', 'review', 'playlist', 'track', 'album', 'video',
  'photo', 'document', 'spreadsheet', 'note', 'task', 'project', 'board', 'card', 'comment', 'user', 'team', 'group',
  'role', 'permission', 'report', 'metric', 'dashboard', 'alert', 'incident', 'log', 'server', 'domain', 'certificate',
  'recipe', 'ingredient', 'exercise', 'workout', 'sleep', 'weather', 'forecast', 'stock', 'quote', 'currency', 'rate',
];
const ADJECTIVES = ['recent', 'open', 'archived', 'shared', 'private', 'public', 'daily', 'monthly', 'pending', 'active', 'draft', 'starred'];

/** A deterministic pseudo-random sequence, so every run measures the same catalog and jobs. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(random: () => number, list: T[]): T => list[Math.floor(random() * list.length)];

/** A valid catalog file of `size` data tasks over `size / 50` providers, shaped like real task text. */
export function generatedCatalog(size: number) {
  const random = sequence(42);
  const providerCount = Math.max(1, Math.ceil(size / 50));
  const providers = Array.from({ length: providerCount }, (_, p) => ({
    slug: `bench-${p}`,
    name: `Bench Provider ${p}`,
    base_url: 'http://127.0.0.1:9',
    auth: { type: 'none' },
  }));
  const tasks = Array.from({ length: size }, (_, t) => {
    const verb = pick(random, VERBS);
    const noun = pick(random, NOUNS);
    const other = pick(random, NOUNS);
    const adjective = pick(random, ADJECTIVES);
    const provider = providers[t % providerCount].slug;
    return {
      id: `${provider}.${noun}.${verb}_${t}`,
      provider,
      capability: `${noun}.${verb}`,
      kind: 'data',
      title: `${verb[0].toUpperCase()}${verb.slice(1)} ${adjective} ${noun}s`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)}s the ${adjective} ${noun}s of a ${other}, with their ${pick(random, NOUNS)} and ${pick(random, NOUNS)} details.`,
      keywords: [noun, other, adjective],
      input: { type: 'object' },
      request: { method: 'GET', path: `/${noun}s` },
    };
  });
  return { providers, tasks };
}

export function writeGeneratedCatalog(file: string, size: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(generatedCatalog(size)));
}

/** Plain-language jobs over the generated vocabulary, some with names and numbers as real jobs have. */
export function generatedJobs(count: number): string[] {
  const random = sequence(7);
  type Words = { verb: string; adjective: string; noun: string; other: string };
  const shapes = [
    ({ verb, adjective, noun, other }: Words) => `${verb} my ${adjective} ${noun}s for the ${other}`,
    ({ verb, noun }: Words) => `please ${verb} the ${noun} called Quarterly Plan`,
    ({ adjective, noun, other }: Words) => `what are the ${adjective} ${noun}s of ${other} 42`,
    ({ verb, noun, other }: Words) => `can you ${verb} a ${noun} and a ${other} for Alice tomorrow`,
  ];
  return Array.from({ length: count }, () =>
    pick(random, shapes)({ verb: pick(random, VERBS), adjective: pick(random, ADJECTIVES), noun: pick(random, NOUNS), other: pick(random, NOUNS) }),
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Times `rank` over `rounds` rounds of `perRound` jobs. On a shared 2-core machine the slowest calls are
 * the process being preempted, so each figure is the median over rounds.
 */
export function benchDiscovery(size: number, rounds: number, perRound: number) {
  const file = fileURLToPath(new URL(`../data/bench-discovery-${size}.json`, import.meta.url));
  writeGeneratedCatalog(file, size);
  const { catalog } = buildCatalog([file]);
  // The similarity resource and the English model, once per process: the resident memory they add.
  (globalThis as { gc?: () => void }).gc?.();
  const residentBefore = process.memoryUsage().rss;
  const loadedAt = process.hrtime.bigint();
  wordVectors();
  readJob('load the English model');
  const resourceLoadMs = Number(process.hrtime.bigint() - loadedAt) / 1e6;
  (globalThis as { gc?: () => void }).gc?.();
  const resourceMb = (process.memoryUsage().rss - residentBefore) / 2 ** 20;
  // The index's memory: the heap it adds, measured after collecting garbage on both sides (node --expose-gc).
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const builtAt = process.hrtime.bigint();
  const cpuAt = process.cpuUsage();
  const index = buildIndex(catalog);
  const buildMs = Number(process.hrtime.bigint() - builtAt) / 1e6;
  // CPU time, beside wall time: on a shared machine the wall time counts the slices other processes took.
  const { user, system } = process.cpuUsage(cpuAt);
  const buildCpuMs = (user + system) / 1000;
  collect?.();
  const indexMb = collect ? (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20 : undefined;
  const jobs = generatedJobs(200);
  for (let i = 0; i < 500; i += 1) rank(index, jobs[i % jobs.length], 5);
  const p50s: number[] = [];
  const p99s: number[] = [];
  const cpuP99s: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    for (let i = 0; i < perRound; i += 1) {
      const started = process.hrtime.bigint();
      const cpuStarted = process.cpuUsage();
      rank(index, jobs[(round * perRound + i) % jobs.length], 5);
      const { user, system } = process.cpuUsage(cpuStarted);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      cpuTimes.push((user + system) / 1000);
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    p50s.push(percentile(times, 50));
    p99s.push(percentile(times, 99));
    cpuP99s.push(percentile(cpuTimes, 99));
  }
  return { tasks: index.tasks.length, resourceMb, resourceLoadMs, buildMs, buildCpuMs, indexMb, p50Ms: median(p50s), p99Ms: median(p99s), cpuP99Ms: median(cpuP99s), worstRoundP99Ms: Math.max(...p99s) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [size = 10000, rounds = 9, perRound = 1000] = process.argv.slice(2).map(Number);
  const result = benchDiscovery(size, rounds, perRound);
  console.log(
    `discovery over ${result.tasks} active tasks: word vectors and English model ${result.resourceMb.toFixed(1)} MB resident, loaded in ${result.resourceLoadMs.toFixed(0)} ms; index built in ${result.buildMs.toFixed(0)} ms (${result.buildCpuMs.toFixed(0)} ms of CPU)` +
      `${result.indexMb === undefined ? ' (run with --expose-gc for its memory)' : `, ${result.indexMb.toFixed(1)} MB of heap`}; rank p50 ${result.p50Ms.toFixed(3)} ms, ` +
      `p99 ${result.p99Ms.toFixed(3)} ms, p99 of CPU time ${result.cpuP99Ms.toFixed(3)} ms (medians of ${rounds} rounds of ${perRound} jobs; ` +
      `worst round p99 ${result.worstRoundP99Ms.toFixed(3)} ms)`,
  );
}
