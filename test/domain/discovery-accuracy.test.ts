import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { buildCatalog, builtinCatalogFiles } from '../../src/domain/catalog/load.js';
import { indexFor, rank } from '../../src/domain/discovery/engine.js';

interface LabelledSet {
  jobs: Array<{ job: string; expect: string }>;
  negatives: string[];
}

const labelled = YAML.parse(readFileSync(new URL('../fixtures/discovery-labelled.yaml', import.meta.url), 'utf8')) as LabelledSet;
const TOP_1_FLOOR = 0.9;
/** Candidates looked at for the reciprocal rank; past this a job counts 0. */
const RANK_DEPTH = 10;

describe('discovery accuracy on the built-in catalog (test/fixtures/discovery-labelled.yaml)', () => {
  const { catalog } = buildCatalog(builtinCatalogFiles(), {}, {});
  const index = indexFor(catalog);

  it('labels at least 50 jobs, each with an active built-in task', () => {
    expect(labelled.jobs.length).to.be.at.least(50);
    for (const { job, expect: id } of labelled.jobs) expect(catalog.tasks.get(id)?.status, `${job} -> ${id}`).to.equal('active');
  });

  it(`ranks the expected task first for at least ${TOP_1_FLOOR * 100}% of the jobs`, () => {
    let first = 0;
    let reciprocalRanks = 0;
    const misses: string[] = [];
    for (const { job, expect: id } of labelled.jobs) {
      // Tasks sharing a capability are interchangeable routes of one job (DESIGN.md section 6).
      const capability = catalog.tasks.get(id)!.capability;
      const candidates = rank(index, job, RANK_DEPTH).candidates;
      const position = candidates.findIndex((ranked) => ranked.task.capability === capability);
      if (position === 0) first += 1;
      else misses.push(`  "${job}": expected ${id}, got ${candidates.slice(0, 3).map((ranked) => ranked.task.id).join(', ') || 'no candidate'}`);
      if (position >= 0) reciprocalRanks += 1 / (position + 1);
    }
    const top1 = first / labelled.jobs.length;
    const mrr = reciprocalRanks / labelled.jobs.length;
    console.log(`    discovery over ${labelled.jobs.length} labelled jobs: top-1 ${top1.toFixed(3)}, MRR ${mrr.toFixed(3)}`);
    if (misses.length) console.log(`    not first:\n${misses.join('\n')}`);
    expect(top1).to.be.at.least(TOP_1_FLOOR);
  });

  it('answers jobs no task does with no candidates and the near misses', () => {
    expect(labelled.negatives.length).to.be.at.least(5);
    for (const job of labelled.negatives) {
      const { candidates, nearMisses } = rank(index, job, 5);
      expect(candidates.map((ranked) => ranked.task.id), job).to.deep.equal([]);
      expect(nearMisses.length, job).to.be.within(1, 5);
      for (const miss of nearMisses) {
        expect(miss.matched.length, job).to.be.greaterThan(0);
        expect(miss.missed.length, job).to.be.greaterThan(0);
      }
    }
  });
});
