/**
 * Fits discovery's parameters (src/domain/discovery/parameters.ts) on the fitting halves of the labelled jobs of
 * the built-in catalog, the two foreign catalogs and GitHub's imported one (test/fixtures/discovery/), and writes them:
 *
 * - the ranking parameters by coordinate descent over a fixed grid, starting from the shipped parameters, each ranking
 *   tried scored out of sample (`crossObjective`): each part of the jobs measured with qualifying weights fitted on the rest;
 * - for the ranking reached, the qualifying weights on all the jobs: a logistic regression telling a right first
 *   candidate from an impossible job's, then the bias by a sweep, then each weight by steps that improve the objective.
 *
 * Each ranking is scored per catalog by the mean of top-1, MRR and true negatives; catalogs are averaged and half
 * the worst is added, so no catalog is traded for another. Deterministic: run again, it writes the same file.
 *
 *   npm run discovery:fit            fit and write parameters.ts
 *   npm run discovery:fit -- --check fit and fail unless the result equals the shipped parameters (no move improves them)
 *   npm run discovery:fit -- --qualifying  fit the qualifying weights alone for the shipped ranking, and print them
 *   npm run discovery:fit -- --reverse     fit with the ranking parameters visited in reverse order, and print the result
 *   npm run discovery:fit -- --plain       fit starting from a plain BM25F (the first value of each in GRID), and print it
 *
 * Coordinate descent ends where its path leads: `--reverse` and `--plain` show how much of a change's objective the path
 * alone moves.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Catalog } from '../src/domain/catalog/types.js';
import { buildIndex, EVERY_CANDIDATE_QUALIFIES, qualifies, QUALIFYING, rank, SIMILARITY_FLOOR, type DiscoveryIndex, type Features, type Parameters } from '../src/domain/discovery/engine.js';
import { FITTED } from '../src/domain/discovery/parameters.js';
import { readJob, type ReadJob } from '../src/domain/discovery/read.js';
import { describeFigures, jobSets, measure, rightCapabilities, type JobSet } from '../test/fixtures/discovery/sets.js';

type Qualifying = (typeof QUALIFYING)[number];
type Ranking = Exclude<keyof Parameters, Qualifying>;

/** The values each ranking parameter may take; the first of each is a plain BM25F (`--plain` starts there). */
const GRID: Record<Ranking, number[]> = {
  titleWeight: [3, 2, 4, 5],
  keywordsWeight: [2, 1, 3, 4],
  capabilityWeight: [2, 1, 3],
  idWeight: [2, 1, 3],
  descriptionWeight: [1, 0.5, 1.5],
  inputsWeight: [1, 0.25, 0.5],
  providerWeight: [1, 2, 3],
  formsWeight: [0, 0.5, 1, 2],
  synonymWeight: [0.8, 0.6, 0.9, 1],
  similarityWeight: [0.6, 0.4, 0.5, 0.7, 0.8],
  similarityLeast: [0.5, SIMILARITY_FLOOR, 0.45, 0.55, 0.6, 0.65],
  unknownWeight: [0.5, 0.1, 0.25, 0.75, 1],
  properUnknownWeight: [0.1, 0, 0.25, 0.5],
  deedWeight: [1, 0.5, 1.5, 2],
  coveragePower: [1, 0, 0.5, 2, 3],
  questionWrite: [0.5, 0.3, 0.7, 1],
  identifierFit: [1.2, 1, 1.5, 2],
  negatedFit: [0.3, 0.1, 0.6, 1],
  clauseMix: [0.5, 0, 0.25, 0.75, 1],
  describedCoverage: [1, 0.25, 0.5, 0.75],
  missedDeed: [0.7, 1, 0.5, 0.85],
  deedFloor: [1, 0.5, 0.7, 0.85],
  typoWeight: [0.8, 0, 0.5, 1],
  unmetInputs: [1, 0.95, 0.9, 0.8],
};
/** The ranking parameters in the grid's order: the order a pass visits them in. */
const RANKINGS = Object.keys(GRID) as Ranking[];
const PASSES = 4;
/** Out-of-sample scoring (`crossObjective`): parts per split, and splits. */
const FOLDS = 4;
const SPLITS = 4;
/** The steps each qualifying weight is moved by after the regression, and how many passes over them at most. */
const QUALIFYING_STEPS = [-0.5, -0.25, 0.25, 0.5];
const QUALIFYING_PASSES = 2;
/** The depth of the reciprocal rank. */
const RANK_DEPTH = 10;

/** One job ranked: its candidates' capabilities and features, and the right capabilities (none for an impossible job). */
interface Case {
  catalog: Catalog;
  job: string;
  expected?: Set<string>;
  candidates: { capability: string; features: Features }[];
}

const readings = new Map<string, ReadJob>();
const read = (job: string) => readings.get(job) ?? readings.set(job, readJob(job)).get(job)!;
/** The first index built of each catalog: later ones reuse its word vectors and neighbours. */
const firstIndexes = new Map<Catalog, DiscoveryIndex>();

function rankAll(sets: JobSet[], ranking: Record<Ranking, number>): Case[] {
  const parameters = { ...ranking, ...EVERY_CANDIDATE_QUALIFIES } as Parameters;
  const indexes = new Map<Catalog, DiscoveryIndex>();
  const cases: Case[] = [];
  for (const set of sets) {
    let index = indexes.get(set.catalog);
    if (!index) {
      index = buildIndex(set.catalog, parameters, firstIndexes.get(set.catalog));
      if (!firstIndexes.has(set.catalog)) firstIndexes.set(set.catalog, index);
      indexes.set(set.catalog, index);
    }
    const ranked = (job: string) => rank(index, job, RANK_DEPTH, read(job)).candidates.map((candidate) => ({ capability: candidate.task.capability, features: candidate.features }));
    for (const { job, task, also } of set.jobs) cases.push({ catalog: set.catalog, job, expected: rightCapabilities(set, task, also), candidates: ranked(job) });
    for (const job of set.impossible) cases.push({ catalog: set.catalog, job, candidates: ranked(job) });
  }
  return cases;
}

/** The objective of qualifying weights over ranked cases (see the header); `weights` may differ per case. */
function objective(cases: Case[], weights: Record<Qualifying, number> | ((job: Case) => Record<Qualifying, number>)): number {
  const perCatalog = new Map<Catalog, { jobs: number; first: number; reciprocal: number; impossible: number; none: number }>();
  for (const job of cases) {
    const { catalog, expected, candidates } = job;
    const parameters = (typeof weights === 'function' ? weights(job) : weights) as Parameters;
    const tally = perCatalog.get(catalog) ?? perCatalog.set(catalog, { jobs: 0, first: 0, reciprocal: 0, impossible: 0, none: 0 }).get(catalog)!;
    const kept = candidates.filter((candidate) => qualifies(parameters, candidate.features));
    if (expected === undefined) {
      tally.impossible += 1;
      if (kept.length === 0) tally.none += 1;
    } else {
      tally.jobs += 1;
      const position = kept.findIndex((candidate) => expected.has(candidate.capability));
      if (position === 0) tally.first += 1;
      if (position >= 0) tally.reciprocal += 1 / (position + 1);
    }
  }
  const values = [...perCatalog.values()].map((t) => (t.first / t.jobs + t.reciprocal / t.jobs + t.none / t.impossible) / 3);
  return values.reduce((sum, value) => sum + value, 0) / values.length + Math.min(...values) / 2;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Logistic regression by gradient descent telling the first candidate of a job it does (1) from the first candidate
 * of an impossible job (0); then the bias swept. A wrong first candidate of a possible job teaches neither.
 */
function fitQualifying(cases: Case[]): { weights: Record<Qualifying, number>; value: number } {
  const examples = cases.flatMap(({ expected, candidates }) => {
    const [first] = candidates;
    if (!first || (expected !== undefined && !expected.has(first.capability))) return [];
    return [{ x: first.features, y: expected === undefined ? 0 : 1 }];
  });
  const w = new Float64Array(QUALIFYING.length);
  const RATE = 0.5;
  const L2 = 0.001;
  for (let step = 0; step < 1500; step += 1) {
    const gradient = new Float64Array(w.length);
    for (const { x, y } of examples) {
      const z = x.reduce((sum, value, at) => sum + value * w[at], 0);
      const error = 1 / (1 + Math.exp(-z)) - y;
      for (let at = 0; at < w.length; at += 1) gradient[at] += error * x[at];
    }
    for (let at = 0; at < w.length; at += 1) w[at] -= RATE * (gradient[at] / examples.length + L2 * w[at]);
  }
  const weights = Object.fromEntries(QUALIFYING.map((name, at) => [name, round(w[at])])) as Record<Qualifying, number>;
  let best = { weights, value: objective(cases, weights) };
  for (let shift = -3; shift <= 3; shift += 0.1) {
    const shifted = { ...weights, qualifyBias: round(weights.qualifyBias + shift) };
    const value = objective(cases, shifted);
    if (value > best.value + 1e-9) best = { weights: shifted, value };
  }
  // Then each weight in turn, a step either way, kept when the objective itself improves: the regression's loss is
  // not the objective.
  for (let pass = 0; pass < QUALIFYING_PASSES; pass += 1) {
    let improved = false;
    for (const name of QUALIFYING) {
      for (const step of QUALIFYING_STEPS) {
        const moved = { ...best.weights, [name]: round(best.weights[name] + step) };
        const value = objective(cases, moved);
        if (value > best.value + 1e-9) {
          best = { weights: moved, value };
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return best;
}

/**
 * `start`: the ranking parameters to start from; `passes`: 0 fits qualifying only; `order`: the order the ranking
 * parameters are visited in each pass. `value` is the objective on all the jobs, `cross` out of sample (`crossObjective`).
 */
export function fit(sets: JobSet[], start: Record<Ranking, number>, passes = PASSES, order = RANKINGS): { parameters: Parameters; value: number; cross: number } {
  const ranking = { ...start };
  let best = crossObjective(rankAll(sets, ranking));
  for (let pass = 0; pass < passes; pass += 1) {
    let improved = false;
    for (const name of order) {
      for (const candidate of GRID[name]) {
        if (candidate === ranking[name]) continue;
        const tried = crossObjective(rankAll(sets, { ...ranking, [name]: candidate }));
        if (tried > best + 1e-9) {
          best = tried;
          ranking[name] = candidate;
          improved = true;
          console.log(`  ${name} = ${candidate}: ${best.toFixed(4)}`);
        }
      }
    }
    if (!improved) break;
  }
  const { weights, value } = fitQualifying(rankAll(sets, ranking));
  return { parameters: { ...ranking, ...weights } as Parameters, value, cross: best };
}

/**
 * The qualifying fit's objective out of sample: the jobs split into FOLDS parts by a byte of their SHA-256, each part's
 * weights fitted on the other parts, the objective taken over all the jobs with the weights they did not see; the mean
 * over SPLITS such splits (bytes 1, 2, ...), since one split's figure moves by a few hundredths with the split alone.
 */
function crossObjective(cases: Case[]): number {
  const hashes = cases.map((job) => createHash('sha256').update(job.job).digest());
  let sum = 0;
  for (let split = 1; split <= SPLITS; split += 1) {
    const folds = new Map(cases.map((job, at) => [job, hashes[at][split] % FOLDS]));
    const fitted = Array.from({ length: FOLDS }, (_, held) => fitQualifying(cases.filter((job) => folds.get(job) !== held)).weights);
    sum += objective(cases, (job) => fitted[folds.get(job)!]);
  }
  return sum / SPLITS;
}

const parametersFile = fileURLToPath(new URL('../src/domain/discovery/parameters.ts', import.meta.url));

function source(parameters: Parameters): string {
  const header = readFileSync(parametersFile, 'utf8').split('export const FITTED')[0];
  return `${header}export const FITTED = {\n${Object.entries(parameters).map(([name, value]) => `  ${name}: ${value},`).join('\n')}\n};\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sets = jobSets('fitting');
  // --qualifying: the qualifying weights alone, for the shipped ranking (a quick look while developing; writes nothing).
  const quick = process.argv.includes('--qualifying');
  const shippedRanking = Object.fromEntries(RANKINGS.map((name) => [name, FITTED[name]])) as Record<Ranking, number>;
  // --reverse: the ranking parameters visited in reverse order; --plain: the descent started from a plain BM25F (each writes nothing).
  const reverse = process.argv.includes('--reverse');
  const plain = process.argv.includes('--plain');
  const plainRanking = Object.fromEntries(RANKINGS.map((name) => [name, GRID[name][0]])) as Record<Ranking, number>;
  const { parameters, value, cross } = fit(sets, plain ? plainRanking : shippedRanking, quick ? 0 : PASSES, reverse ? [...RANKINGS].reverse() : RANKINGS);
  console.log(`objective ${value.toFixed(4)}, out of sample ${cross.toFixed(4)}`);
  for (const set of sets) console.log(describeFigures(set.name, measure(set, buildIndex(set.catalog, parameters))));
  if (quick || reverse || plain) console.log(JSON.stringify(parameters));
  else if (process.argv.includes('--check')) {
    const same = (Object.keys(parameters) as (keyof Parameters)[]).every((name) => FITTED[name] === parameters[name]);
    console.log(same ? 'the shipped parameters are reproduced' : `the shipped parameters differ from the fit: ${JSON.stringify(parameters)}`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(parametersFile, source(parameters));
    console.log(`wrote ${parametersFile}`);
  }
}
