import { expect } from 'chai';
import { buildIndex, indexFor, MIN_SCORE, NEAR_MISSES, rank, readJob } from '../../src/domain/discovery/engine.js';
import { jobWords, stem } from '../../src/domain/discovery/text.js';
import type { Task } from '../../src/domain/catalog/types.js';
import { fixtureCatalog, variantOf } from '../fixtures/discovery/catalog.js';

const catalog = fixtureCatalog();
const index = indexFor(catalog);
const ids = (job: string, limit = 5) => rank(index, job, limit).candidates.map((ranked) => ranked.task.id);

describe('discovery engine', () => {
  describe('reading a job', () => {
    it('stems words, drops stop words and contractions', () => {
      expect(readJob(index, "what's the weather like").map((term) => term.word)).to.deep.equal(['weather']);
      expect(jobWords('Sending emails').map((word) => word.stem)).to.deep.equal([stem('send'), stem('email')]);
    });

    it('tells action, object, neutral and modifier words apart', () => {
      const roles = Object.fromEntries(readJob(index, 'please create a new issue and show tomorrow').map((term) => [term.word, term.role]));
      expect(roles).to.deep.equal({ create: 'action', new: 'modifier', issue: 'object', show: 'neutral', tomorrow: 'modifier' });
      expect(readJob(index, 'sending').map((term) => term.role)).to.deep.equal(['action']);
    });

    it('drops literals and unknown names: they are the task input, not the job', () => {
      const words = readJob(index, 'forecast for Lyon at 10:30, see https://x.example/a and "Some Quoted Thing" or bob@x.example in hapijs/hapi');
      expect(words.map((term) => term.word)).to.deep.equal(['forecast', 'see']);
    });

    it('keeps a capitalised word a task knows, and an unknown word written in lower case', () => {
      expect(readJob(index, 'ask GitCo for issues').map((term) => term.word)).to.deep.equal(['gitco', 'issues']);
      expect(readJob(index, 'get me a pizza').map((term) => term.word)).to.deep.equal(['get', 'pizza']);
    });
  });

  describe('ranking', () => {
    it('answers paraphrases through stems and synonyms', () => {
      expect(ids("what's the weather in Paris")[0]).to.equal('weatherco.weather.current');
      expect(ids('is it going to rain in Lyon tomorrow')[0]).to.equal('weatherco.weather.forecast');
      expect(ids('email my boss the report')[0]).to.equal('mailer.mail.send');
      expect(ids('post a message to the team channel')[0]).to.equal('chatco.messages.post');
      expect(ids('publish a note in the team channel')[0]).to.equal('chatco.messages.post');
      expect(ids('show me my repos')).to.deep.equal(['gitco.repos.list']);
    });

    it('uses the catalog synonyms: without them a synonym finds nothing', () => {
      expect(ids('will it snow tomorrow')).to.deep.equal(['weatherco.weather.forecast']);
      const plain = variantOf(catalog, 'no-synonyms', { synonyms: [] });
      expect(rank(buildIndex(plain), 'will it snow tomorrow', 5).candidates).to.deep.equal([]);
    });

    it('counts a synonym below the word itself, and a document matching several of them once', () => {
      const exact = rank(index, 'publish channel', 5).candidates[0];
      const viaSynonym = rank(index, 'send channel', 5).candidates[0];
      expect(exact.task.id).to.equal(viaSynonym.task.id);
      expect(rank(index, 'post channel', 5).candidates[0].score).to.be.greaterThan(viaSynonym.score);
      const email = rank(index, 'email', 5).candidates.find((ranked) => ranked.task.id === 'mailer.mail.send')!;
      const mail = rank(index, 'mail', 5).candidates.find((ranked) => ranked.task.id === 'mailer.mail.send')!;
      expect(mail.score).to.be.closeTo(email.score * 0.8, 0.002);
    });

    it('reports the words of the job each candidate matched, as written', () => {
      const [first] = rank(index, 'Sending emails to Alice', 5).candidates;
      expect(first.task.id).to.equal('mailer.mail.send');
      expect(first.matched).to.deep.equal(['sending', 'emails']);
      expect(first.missed).to.deep.equal([]);
    });

    it('needs the job to name something: neutral verbs and modifiers alone qualify nothing', () => {
      const ranking = rank(index, 'show me the latest', 5);
      expect(ranking.candidates).to.deep.equal([]);
    });

    it('needs a task to cover one of the job\'s action words', () => {
      expect(ids('create an issue about the crash')).to.deep.equal(['gitco.issues.create']);
      expect(ids('list the open issues')).to.include.members(['gitco.issues.list']);
    });

    it('needs a task to cover one of the job\'s object words', () => {
      const ranking = rank(index, 'send a fax to my lawyer', 5);
      expect(ranking.candidates).to.deep.equal([]);
      const mail = ranking.nearMisses.find((ranked) => ranked.task.id === 'mailer.mail.send')!;
      expect(mail.matched).to.deep.equal(['send']);
      expect(mail.missed).to.deep.equal(['fax', 'lawyer']);
    });

    it('needs the score to clear the threshold', () => {
      // "user" appears in the descriptions of several tasks: too weak alone.
      const ranking = rank(index, 'the user', 5);
      expect(ranking.candidates).to.deep.equal([]);
      expect(ranking.nearMisses.length).to.be.greaterThan(0);
      for (const miss of ranking.nearMisses) {
        expect(miss.score).to.be.below(MIN_SCORE);
        expect(miss.matched).to.deep.equal(['user']);
      }
      for (const candidate of rank(index, 'weather', 5).candidates) expect(candidate.score).to.be.at.least(MIN_SCORE);
    });

    it('answers near misses best first, at most five, with matched and missed words', () => {
      const ranking = rank(index, 'upload a file to the team channel', 5);
      expect(ranking.candidates).to.deep.equal([]);
      expect(ranking.nearMisses.length).to.be.within(1, NEAR_MISSES);
      expect(ranking.nearMisses[0].task.id).to.equal('chatco.messages.post');
      expect(ranking.nearMisses[0].matched).to.deep.equal(['team', 'channel']);
      expect(ranking.nearMisses[0].missed).to.deep.equal(['upload', 'file']);
      const scores = ranking.nearMisses.map((miss) => miss.score);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    });

    it('answers no near misses when no task shares a word with the job', () => {
      expect(rank(index, 'book a flight to Tokyo', 5)).to.deep.equal({ candidates: [], nearMisses: [] });
    });

    it('never returns retired or broken tasks, as candidates or near misses', () => {
      for (const job of ['historical weather archive', 'past weather history', 'upload a file attachment to a channel']) {
        const { candidates, nearMisses } = rank(index, job, 50);
        const found = [...candidates, ...nearMisses].map((ranked) => ranked.task.id);
        expect(found).to.not.include.members(['weatherco.weather.history', 'chatco.files.upload']);
      }
      expect(index.tasks.map((task) => task.id)).to.not.include.members(['weatherco.weather.history', 'chatco.files.upload']);
    });

    it('honours the limit', () => {
      expect(ids('weather', 5)).to.have.length(2);
      expect(ids('weather', 1)).to.deep.equal(['weatherco.weather.current']);
    });

    it('is deterministic: the same job ranks the same way, and equal scores go by task id', () => {
      expect(rank(index, 'list issues of my repo', 10)).to.deep.equal(rank(index, 'list issues of my repo', 10));
      // Twins differing only in one id word that the job does not use score the same.
      const original = catalog.tasks.get('weatherco.weather.current')!;
      const twins: Task[] = [{ ...original, id: 'weatherco.twin.zulu' }, { ...original, id: 'weatherco.twin.alpha' }];
      const withTwins = variantOf(catalog, 'twins', { tasks: new Map([...catalog.tasks, ...twins.map((twin) => [twin.id, twin] as const)]) });
      const [first, second] = rank(buildIndex(withTwins), 'temperature and conditions', 5).candidates;
      expect(first.score).to.equal(second.score);
      expect([first.task.id, second.task.id]).to.deep.equal(['weatherco.twin.alpha', 'weatherco.twin.zulu']);
    });

    it('builds one index per catalog version', () => {
      expect(indexFor(catalog)).to.equal(index);
      expect(indexFor(fixtureCatalog())).to.equal(index);
      const other = indexFor(variantOf(catalog, 'other-version', { synonyms: [] }));
      expect(other).to.not.equal(index);
      expect(other.version).to.equal('other-version');
    });
  });
});
