import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { buildCatalog, builtinCatalogFiles } from '../../src/domain/catalog/load.js';
import type { Catalog } from '../../src/domain/catalog/types.js';
import { indexFor, NEAR_MISSES, rank } from '../../src/domain/discovery/engine.js';
import { selfHostedCatalogFile } from '../fixtures/discovery/catalog.js';

/**
 * Discovery's accuracy on labelled jobs people would type (test/fixtures/discovery/jobs-*.yaml). Each set
 * has a tuning half (1st, 3rd, 5th... job) and a held-back half (2nd, 4th...): the bars apply to the
 * held-back half, and only the tuning half's misses are printed, so tuning on them stays honest.
 */

interface Labelled {
  job: string;
  expect: string;
}

const read = <T>(name: string): T => YAML.parse(readFileSync(new URL(`../fixtures/discovery/${name}`, import.meta.url), 'utf8')) as T;
const positives = read<{ jobs: Labelled[] }>('jobs-positive.yaml').jobs;
const impossible = read<{ jobs: string[] }>('jobs-impossible.yaml').jobs;
const selfHosted = read<{ jobs: Labelled[]; impossible: string[] }>('jobs-self-hosted.yaml');
const development = read<{ jobs: Labelled[]; impossible: string[] }>('jobs-development.yaml');
/** A second labelled set, written blind from task ids and titles only after the engine's third round of tuning. */
const fresh = read<{ jobs: Labelled[]; impossible: string[] }>('jobs-fresh.yaml');
/** Check sets, written blind and never tuned on: their results are printed only in aggregate. */
const checkSets = [
  { name: 'check set', ...read<{ jobs: Labelled[]; impossible: string[] }>('jobs-check.yaml') },
  { name: 'second check set', ...read<{ jobs: Labelled[]; impossible: string[] }>('jobs-check-2.yaml') },
];
/** The first labelled set, written before these and tuned on by the engine's first version: kept as a regression check. */
const earlier = YAML.parse(readFileSync(new URL('../fixtures/discovery-labelled.yaml', import.meta.url), 'utf8')) as { jobs: Labelled[]; negatives: string[] };
const EARLIER_TOP_1_FLOOR = 0.9;

const HALVES = { tuning: 0, 'held-back': 1 } as const;
type Half = keyof typeof HALVES;
const halfOf = <T>(list: T[], half: Half) => list.filter((_, position) => position % 2 === HALVES[half]);

/**
 * The goal for the held-back top-1 is 0.93; the engine reached 0.907 after the seventh to ninth rounds, 0.924 after
 * the tenth and 0.932 after the fourteenth (docs/discovery.md), so the floor is the goal itself.
 */
const TOP_1_GOAL = 0.93;
const TOP_1_FLOOR = TOP_1_GOAL;
const TRUE_NEGATIVE_FLOOR = 0.9;
/**
 * The fresh set's held-back half is held to the same bars. It read top-1 0.832 and true negatives 0.612 before any
 * change for it, 0.859 and 0.701 after the round tuned on its tuning half, 0.866 and 0.776 after the round tuned on
 * development batch 6, 0.893 and 0.851 after the seventh, 0.906 and 0.851 after the eighth, 0.926 and 0.881 after the
 * tenth, 0.926 and 0.896 after the fifteenth, 0.933 and 0.896 after the twenty-first and 0.933 and 0.910 after the
 * twenty-third (docs/discovery.md), when it met both; until then floors just under what it read held it.
 */
/**
 * Floors just under what each check set reaches, so it cannot slip back: the check set read top-1 0.930 and true
 * negatives 0.762 when first measured, 0.940 and 0.863 after the seventh round, 0.945 and 0.863 after the eighth,
 * 0.960 and 0.900 after the tenth, 0.960 and 0.912 after the thirteenth, 0.970 and 0.912 after the fifteenth,
 * 0.975 and 0.912 after the twentieth; the second check set 0.847 and 0.731 before the seventh round, 0.896 and 0.769
 * after it, 0.902 and 0.769 after the eighth, 0.902 and 0.782 after the ninth, 0.918 and 0.859 after the tenth,
 * 0.923 and 0.859 after the eleventh, 0.923 and 0.885 after the twelfth, 0.929 after the fourteenth, 0.934 after
 * the fifteenth and 0.940 after the twenty-first.
 */
const CHECK_FLOORS: Record<string, { top1: number; trueNegative: number }> = {
  'check set': { top1: 0.97, trueNegative: 0.91 },
  'second check set': { top1: 0.93, trueNegative: 0.88 },
};
/** A self-hoster's file beside the built-in catalog may cost the held-back half this much, no more. */
const SECOND_CATALOG_SLACK = 0.02;
/** The self-hoster's own 16 jobs, never tuned on. */
const OWN_TOP_1_FLOOR = 0.85;
/** Candidates looked at for the reciprocal rank; past this a job counts 0. */
const RANK_DEPTH = 10;

interface Figures {
  top1: number;
  mrr: number;
  /** Share of impossible jobs answered with no candidate. */
  trueNegative: number;
  misses: string[];
}

/** A candidate of the expected task's capability counts as right: tasks sharing a capability are interchangeable routes. */
function measure(catalog: Catalog, jobs: Labelled[], nothing: string[]): Figures {
  const index = indexFor(catalog);
  let first = 0;
  let reciprocalRanks = 0;
  const misses: string[] = [];
  for (const { job, expect: id } of jobs) {
    const capability = catalog.tasks.get(id)!.capability;
    const candidates = rank(index, job, RANK_DEPTH).candidates;
    const position = candidates.findIndex((ranked) => ranked.task.capability === capability);
    if (position === 0) first += 1;
    else misses.push(`"${job}": expected ${id}, got ${candidates.slice(0, 3).map((ranked) => ranked.task.id).join(', ') || 'no candidate'}`);
    if (position >= 0) reciprocalRanks += 1 / (position + 1);
  }
  let negatives = 0;
  for (const job of nothing) {
    const candidates = rank(index, job, 5).candidates;
    if (candidates.length === 0) negatives += 1;
    else misses.push(`"${job}": expected no candidate, got ${candidates.slice(0, 3).map((ranked) => ranked.task.id).join(', ')}`);
  }
  return { top1: first / jobs.length, mrr: reciprocalRanks / jobs.length, trueNegative: negatives / nothing.length, misses };
}

function report(label: string, figures: Figures, showMisses: boolean): void {
  console.log(`    ${label}: top-1 ${figures.top1.toFixed(3)}, MRR ${figures.mrr.toFixed(3)}, true negatives ${figures.trueNegative.toFixed(3)}`);
  if (showMisses && figures.misses.length) console.log(figures.misses.map((miss) => `      ${miss}`).join('\n'));
}

describe('discovery accuracy on labelled jobs (test/fixtures/discovery/jobs-*.yaml)', () => {
  const { catalog: builtin } = buildCatalog(builtinCatalogFiles(), {}, {});
  const { catalog: withSelfHosted } = buildCatalog([...builtinCatalogFiles(), selfHostedCatalogFile], {}, {});

  it('labels at least 200 jobs over every built-in capability and 80 jobs nothing does', () => {
    expect(positives.length).to.be.at.least(200);
    expect(impossible.length).to.be.at.least(80);
    for (const { job, expect: id } of positives) expect(builtin.tasks.get(id)?.status, `${job} -> ${id}`).to.equal('active');
    const labelled = new Set(positives.map(({ expect: id }) => builtin.tasks.get(id)!.capability));
    const active = [...builtin.tasks.values()].filter((task) => task.status === 'active').map((task) => task.capability);
    expect(active.filter((capability) => !labelled.has(capability))).to.deep.equal([]);
  });

  it(`on the built-in catalog, the held-back half ranks the expected task first for ${TOP_1_FLOOR * 100}% and answers ${TRUE_NEGATIVE_FLOOR * 100}% of impossible jobs with nothing`, () => {
    const tuning = measure(builtin, halfOf(positives, 'tuning'), halfOf(impossible, 'tuning'));
    const heldBack = measure(builtin, halfOf(positives, 'held-back'), halfOf(impossible, 'held-back'));
    report('built-in catalog, tuning half', tuning, true);
    report('built-in catalog, held-back half', heldBack, false);
    report('built-in catalog, development batches (tuned on)', measure(builtin, development.jobs, development.impossible), false);
    if (heldBack.top1 < TOP_1_GOAL) console.log(`    held-back top-1 ${heldBack.top1.toFixed(3)} is still below the goal of ${TOP_1_GOAL}`);
    expect(heldBack.top1).to.be.at.least(TOP_1_FLOOR);
    expect(heldBack.trueNegative).to.be.at.least(TRUE_NEGATIVE_FLOOR);
  });

  it('beside a self-hoster\'s file it was not tuned on, stays as accurate, and finds the file\'s own tasks', () => {
    const alone = measure(builtin, halfOf(positives, 'held-back'), halfOf(impossible, 'held-back'));
    const tuning = measure(withSelfHosted, halfOf(positives, 'tuning'), halfOf(impossible, 'tuning'));
    const heldBack = measure(withSelfHosted, halfOf(positives, 'held-back'), halfOf(impossible, 'held-back'));
    const own = measure(withSelfHosted, selfHosted.jobs, selfHosted.impossible);
    report('with the self-hoster\'s file, tuning half', tuning, false);
    report('with the self-hoster\'s file, held-back half', heldBack, false);
    report('the self-hoster\'s own jobs', own, false);
    expect(heldBack.top1).to.be.at.least(alone.top1 - SECOND_CATALOG_SLACK);
    expect(heldBack.trueNegative).to.be.at.least(alone.trueNegative - SECOND_CATALOG_SLACK);
    expect(own.top1).to.be.at.least(OWN_TOP_1_FLOOR);
    expect(own.trueNegative).to.be.at.least(TRUE_NEGATIVE_FLOOR);
  });

  it(`on the fresh set, the held-back half ranks the expected task first for ${TOP_1_FLOOR * 100}% and answers ${TRUE_NEGATIVE_FLOOR * 100}% of impossible jobs with nothing`, () => {
    for (const { job, expect: id } of fresh.jobs) expect(builtin.tasks.get(id)?.status, `${job} -> ${id}`).to.equal('active');
    const heldBack = measure(builtin, halfOf(fresh.jobs, 'held-back'), halfOf(fresh.impossible, 'held-back'));
    report('fresh set, built-in catalog, tuning half', measure(builtin, halfOf(fresh.jobs, 'tuning'), halfOf(fresh.impossible, 'tuning')), true);
    report('fresh set, built-in catalog, held-back half', heldBack, false);
    // Not held to the slack of the main sets: the self-hoster's file sends SMS, which some of the fresh set's impossible jobs ask for.
    report('fresh set with the self-hoster\'s file, tuning half', measure(withSelfHosted, halfOf(fresh.jobs, 'tuning'), halfOf(fresh.impossible, 'tuning')), false);
    report('fresh set with the self-hoster\'s file, held-back half', measure(withSelfHosted, halfOf(fresh.jobs, 'held-back'), halfOf(fresh.impossible, 'held-back')), false);
    expect(heldBack.top1).to.be.at.least(TOP_1_FLOOR);
    expect(heldBack.trueNegative).to.be.at.least(TRUE_NEGATIVE_FLOOR);
  });

  for (const set of checkSets) {
    const floor = CHECK_FLOORS[set.name];
    it(`on the ${set.name}, never tuned on, ranks the expected task first for ${floor.top1 * 100}% and answers ${floor.trueNegative * 100}% of impossible jobs with nothing`, () => {
      for (const { job, expect: id } of set.jobs) expect(builtin.tasks.get(id)?.status, `${job} -> ${id}`).to.equal('active');
      const figures = measure(builtin, set.jobs, set.impossible);
      report(`${set.name} (never tuned on), built-in catalog`, figures, false);
      if (figures.top1 < TOP_1_GOAL) console.log(`    ${set.name} top-1 ${figures.top1.toFixed(3)} is below the goal of ${TOP_1_GOAL}`);
      if (figures.trueNegative < TRUE_NEGATIVE_FLOOR) console.log(`    ${set.name} true negatives ${figures.trueNegative.toFixed(3)} are below the goal of ${TRUE_NEGATIVE_FLOOR}`);
      expect(figures.top1).to.be.at.least(floor.top1);
      expect(figures.trueNegative).to.be.at.least(floor.trueNegative);
    });
  }

  it(`still ranks the expected task first for ${EARLIER_TOP_1_FLOOR * 100}% of the earlier labelled set, and nothing for its negatives`, () => {
    const figures = measure(builtin, earlier.jobs, earlier.negatives);
    report('built-in catalog, earlier labelled set (test/fixtures/discovery-labelled.yaml)', figures, true);
    expect(figures.top1).to.be.at.least(EARLIER_TOP_1_FLOOR);
    expect(figures.trueNegative).to.equal(1);
  });

  it('answers every impossible job\'s near misses with the words each matched and missed', () => {
    const index = indexFor(builtin);
    for (const job of impossible) {
      for (const miss of rank(index, job, 5).nearMisses.slice(0, NEAR_MISSES)) {
        expect(miss.matched.length, job).to.be.greaterThan(0);
        expect(miss.missed.length, job).to.be.greaterThan(0);
      }
    }
  });
});
