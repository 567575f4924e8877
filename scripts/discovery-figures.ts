/**
 * Discovery's figures on every labelled set, the development batches included (about 9,500 jobs, too many for
 * the test suite): `npm run discovery:figures [-- --misses]` prints top-1, MRR and true negatives per set, and
 * with --misses each fitting set's misses. Held-back sets' misses are never printed.
 */
import { describeFigures, developmentSet, jobSets, measure } from '../test/fixtures/discovery/sets.js';

const showMisses = process.argv.includes('--misses');
for (const set of [...jobSets('fitting'), developmentSet(), ...jobSets('held-back')]) {
  const figures = measure(set);
  console.log(describeFigures(set.name, figures));
  if (showMisses && !set.name.includes('held-back')) for (const miss of figures.misses) console.log(`  ${miss}`);
}
