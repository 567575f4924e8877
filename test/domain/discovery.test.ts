import { expect } from 'chai';
import type { Task } from '../../src/domain/catalog/types.js';
import { readyFirst } from '../../src/domain/discovery/discover.js';
import { buildIndex, EVERY_CANDIDATE_QUALIFIES, indexFor, NEAR_MISSES, rank, type Features } from '../../src/domain/discovery/engine.js';
import { FITTED } from '../../src/domain/discovery/parameters.js';
import { readJob } from '../../src/domain/discovery/read.js';
import { fixtureCatalog, variantOf } from '../fixtures/discovery/catalog.js';

/** How discovery behaves, on the small fixture catalog; how accurate it is: discovery-accuracy.test.ts. */

const catalog = fixtureCatalog();
const index = indexFor(catalog);
const ids = (job: string, limit = 5) => rank(index, job, limit).candidates.map((ranked) => ranked.task.id);

describe('discovery engine', () => {
  describe('reading a job', () => {
    it('reads content words by their lemma, and leaves out function words, numbers and quoted text', () => {
      const read = readJob("Send 'see you at 5' to Anna's phone, then list the 3 newest emails");
      expect(read.words.map((word) => word.lemma)).to.include.members(['send', 'phone', 'list', 'email']);
      expect(read.words.map((word) => word.word)).to.not.include.members(['see', 'you', 'the', '3']);
    });

    it('tells a question from a command, and sees an identifier', () => {
      expect(readJob('what issues are open in acme/api?').question).to.equal(true);
      expect(readJob('could you open an issue in acme/api?').question).to.equal(false);
      expect(readJob('close ENG-1423').identifier).to.equal(true);
      expect(readJob('close the login bug').identifier).to.equal(false);
    });

    it('sees whether a job gives a value a task\'s input could take', () => {
      expect(readJob('list the open issues').givesValue).to.equal(false);
      expect(readJob('list the open issues in acme/api').givesValue).to.equal(true);
      expect(readJob('show issue 42').givesValue).to.equal(true);
      expect(readJob('email "weekly report" to the team').givesValue).to.equal(true);
    });

    it('reads words joined by a colon as a qualifier\'s words, which the model would take for an emoticon', () => {
      const read = readJob('page team:payments about the is:open alerts');
      expect(read.words.map((word) => word.word)).to.include.members(['team', 'payments', 'open']);
      expect(read.words.map((word) => word.word)).to.not.include.members(['ayments', 'pen']);
      expect(new Set(read.words.filter((word) => ['team', 'payments'].includes(word.word)).map((word) => word.clause)).size).to.equal(1);
      expect(read.givesValue).to.equal(true);
    });

    it('reads a dotted name, a channel and a handle as values, and a dot inside a name ends no sentence', () => {
      const dotted = readJob('email the node.js guide to the team');
      expect(dotted.words.map((word) => word.word)).to.deep.equal(['email', 'guide', 'team']);
      expect(new Set(dotted.words.map((word) => word.clause)).size).to.equal(1);
      expect(dotted.givesValue).to.equal(true);
      expect(readJob('delete the mail.acme.io record').givesValue).to.equal(true);
      expect(readJob('invite new.user@example.com to the team').words.map((word) => word.word)).to.deep.equal(['invite', 'team']);
      expect(readJob('post the notes in #general').givesValue).to.equal(true);
      expect(readJob('ask @lena to review it').givesValue).to.equal(true);
      expect(readJob('post the notes in the channel').givesValue).to.equal(false);
    });

    it('reads a verb followed by a preposition or particle ("look up", "set up") as a word of the job, not as its deed', () => {
      const verbs = (job: string) => readJob(job).words.filter((word) => word.verb).map((word) => word.word);
      expect(verbs('look up isbn 0306406152')).to.deep.equal([]);
      expect(readJob('look up isbn 0306406152').words.map((word) => word.word)).to.include('look');
      expect(verbs('set up a meeting with Tom')).to.deep.equal([]);
      expect(verbs('send the report to Anna')).to.deep.equal(['send']);
    });

    it('keeps what a job excludes apart from what it asks for', () => {
      const read = readJob('tell the team in the channel, not by email');
      expect(read.negated).to.include('email');
      expect(read.words.map((word) => word.word)).to.not.include('email');
    });

    it('excludes only the first word after a negator, where the model\'s negation runs to the sentence\'s end', () => {
      const read = readJob('who has not accepted their invite to the design review');
      expect(read.negated).to.deep.equal(['accept']);
      expect(read.words.map((word) => word.word)).to.include.members(['invite', 'design', 'review']);
    });
  });

  describe('ranking', () => {
    it('finds a task by the catalog\'s own words and gives nothing for a job no task covers', () => {
      expect(ids('post a message to the team channel')[0]).to.equal('chatco.messages.post');
      expect(ids('send a fax to my lawyer')).to.deep.equal([]);
    });

    it('ranks a task named by a word the job excludes lower', () => {
      const scoreOf = (job: string, id: string) => [...rank(index, job, 10).candidates, ...rank(index, job, 10).nearMisses].find((ranked) => ranked.task.id === id)?.score ?? 0;
      const asked = scoreOf('send the team a message by email', 'mailer.mail.send');
      const excluded = scoreOf('send the team a message, not by email', 'mailer.mail.send');
      expect(asked).to.be.greaterThan(0);
      expect(excluded).to.be.lessThan(asked);
    });

    it('ranks a task that changes something lower for a question than for the same words asked as a command', () => {
      // Ranking alone: every candidate qualifies, so both tasks are answered whatever qualifying makes of them.
      const ranking = buildIndex(catalog, { ...FITTED, ...EVERY_CANDIDATE_QUALIFIES });
      const share = (job: string) => {
        const { candidates } = rank(ranking, job, 10);
        const score = (id: string) => candidates.find((ranked) => ranked.task.id === id)?.score ?? 0;
        return score('gitco.issues.create') / score('gitco.issues.list');
      };
      expect(share('which issue do I file in acme/api?')).to.be.lessThan(share('file an issue in acme/api'));
    });

    it('ranks a task requiring an input the job neither names nor gives a value for lower', () => {
      const listing = catalog.tasks.get('gitco.issues.list')!;
      const tasks = new Map(catalog.tasks).set(listing.id, { ...listing, input: { ...listing.input, required: [] } });
      const unrequired = indexFor(variantOf(catalog, 'issues-list-requires-nothing', { tasks }));
      const scoreIn = (scored: typeof index, job: string) => rank(scored, job, 10).candidates.find((ranked) => ranked.task.id === listing.id)?.score ?? 0;
      expect(scoreIn(index, 'list the open issues')).to.be.greaterThan(0).and.lessThan(scoreIn(unrequired, 'list the open issues'));
      expect(scoreIn(index, 'list the open issues in acme/api')).to.equal(scoreIn(unrequired, 'list the open issues in acme/api'));
    });

    it('never returns retired or broken tasks, as candidates or near misses', () => {
      for (const job of ['historical weather archive', 'upload a file attachment to a channel']) {
        const { candidates, nearMisses } = rank(index, job, 50);
        expect([...candidates, ...nearMisses].map((ranked) => ranked.task.id)).to.not.include.members(['weatherco.weather.history', 'chatco.files.upload']);
      }
    });

    it('answers near misses, with the words each matched and missed, when nothing qualifies', () => {
      const { candidates, nearMisses } = rank(index, 'delete the weather', 5);
      expect(candidates).to.deep.equal([]);
      expect(nearMisses.length).to.be.within(1, NEAR_MISSES);
      for (const miss of nearMisses) {
        expect(miss.matched).to.include('weather');
        expect(miss.missed).to.include('delete');
      }
    });

    it('honours the limit and ranks the same job the same way', () => {
      expect(ids('weather forecast temperature', 1)).to.have.length(1);
      expect(rank(index, 'list issues of my repo', 10)).to.deep.equal(rank(index, 'list issues of my repo', 10));
    });

    it('builds one index per catalog version', () => {
      const built = indexFor(catalog);
      expect(indexFor(fixtureCatalog())).to.equal(built);
      expect(indexFor(variantOf(catalog, 'other-version', { synonyms: [] }))).to.not.equal(built);
    });
  });

  describe('ready first', () => {
    it('moves a ready candidate ahead of not-ready ones of similar score, never ahead of a much better one', () => {
      const task = (id: string) => ({ id }) as Task;
      const ranked = [
        { task: task('a'), score: 10, matched: [], missed: [], features: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] as Features },
        { task: task('b'), score: 9, matched: [], missed: [], features: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] as Features },
        { task: task('c'), score: 4, matched: [], missed: [], features: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] as Features },
      ];
      const order = (ready: Record<string, boolean>) => readyFirst(ranked, new Map(Object.entries(ready))).map((candidate) => candidate.task.id);
      expect(order({ a: false, b: true, c: false })).to.deep.equal(['b', 'a', 'c']);
      expect(order({ a: false, b: false, c: true })).to.deep.equal(['a', 'b', 'c']);
    });
  });
});
