/**
 * Discovery's figures on every labelled set, the development batches included (about 9,500 jobs, too many for
 * the test suite): `npm run discovery:figures` prints top-1, MRR and true negatives per set, the held-back halves
 * last (read them once, at a round's end). `-- --misses` is for looking at failures while developing: it measures
 * the fitting halves and the development batches alone, and prints each of their misses; the held-back halves are
 * neither measured nor printed. Each set's figures are printed against the targets (test/fixtures/discovery/sets.ts).
 */
import { againstTargets, describeFigures, developmentSet, jobSets, measure } from '../test/fixtures/discovery/sets.js';

const showMisses = process.argv.includes('--misses');
for (const set of [...jobSets('fitting'), developmentSet(), ...(showMisses ? [] : jobSets('held-back'))]) {
  const figures = measure(set);
  console.log(`${describeFigures(set.name, figures)}; ${againstTargets(figures)}`);
  if (showMisses) for (const miss of figures.misses) console.log(`  ${miss}`);
}
