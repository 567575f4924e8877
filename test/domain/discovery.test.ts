import { expect } from 'chai';
import { buildIndex, indexFor, MIN_SCORE, NEAR_MISSES, rank } from '../../src/domain/discovery/engine.js';
import { FUZZY_WEIGHT, GIVES_AMOUNT, GIVES_CHANNEL, GIVES_CODE, GIVES_DOCUMENT, GIVES_ENCODED, GIVES_PATH, GIVES_RANGE, readJob, SYNONYM_WEIGHT } from '../../src/domain/discovery/job.js';
import { jobWords, quotes, stem } from '../../src/domain/discovery/text.js';
import type { Task } from '../../src/domain/catalog/types.js';
import { buildCatalog, builtinCatalogFiles } from '../../src/domain/catalog/load.js';
import { fixtureCatalog, selfHostedCatalogFile, variantOf } from '../fixtures/discovery/catalog.js';

const catalog = fixtureCatalog();
const index = indexFor(catalog);
const termsOf = (job: string) => readJob(index, job).terms;
const ids = (job: string, limit = 5) => rank(index, job, limit).candidates.map((ranked) => ranked.task.id);

describe('discovery engine', () => {
  describe('reading a job', () => {
    const roles = (job: string) => Object.fromEntries(termsOf(job).map((term) => [term.word, term.role]));

    it('stems words, drops stop words, one-letter words and contractions', () => {
      expect(termsOf("what's the weather like, x").map((term) => term.word)).to.deep.equal(['weather']);
      expect(jobWords('Sending emails').map((word) => word.stem)).to.deep.equal([stem('send'), stem('email')]);
      expect(jobWords('Pokémon').map((word) => word.word)).to.deep.equal(['pokemon']);
    });

    it('tells action, object, neutral and modifier words apart', () => {
      expect(roles('please create a new issue and show tomorrow')).to.deep.equal({ create: 'action', new: 'modifier', issue: 'object', show: 'neutral', tomorrow: 'modifier' });
    });

    it('reads an action verb as a noun after a determiner or another noun, and by its own form only', () => {
      expect(roles('post a message')).to.deep.equal({ post: 'action', message: 'object' });
      expect(roles('read the post')).to.deep.equal({ read: 'neutral', post: 'object' });
      expect(roles('find my blog post')).to.deep.equal({ find: 'neutral', my: 'modifier', blog: 'object', post: 'object' });
      expect(roles('general settings')).to.deep.equal({ general: 'object', settings: 'object' });
    });

    it('reads a job whose last clause is a question after ones setting the scene as a question ("if it\'s 3pm in London, what time ...")', () => {
      expect(readJob(index, "if it's 3pm in London, what time is that in New York").question).to.equal(true);
      expect(readJob(index, "I'm travelling to Canada tomorrow so how many CAD will I get for 600 USD").question).to.equal(true);
      // A relative clause is not a question.
      expect(readJob(index, 'create an issue, which says the build fails').question).to.equal(false);
      // What a verb setting the scene is about is not what the job seeks.
      expect(readJob(index, "I'm about to walk the dog in Austin, how windy is it currently?").sought).to.equal(undefined);
    });

    it('reads "what\'s", "it\'s" and "there\'s" as a word and "is", not as a possessive ("what\'s Kubernetes?")', () => {
      expect(jobWords("what's Kubernetes?")[0].possessive).to.equal(undefined);
      expect(jobWords("Jane's post")[0].possessive).to.equal(true);
      expect(readJob(index, "what's Kubernetes? brief overview").elsewhere).to.equal(false);
    });

    it('reads a question\'s verbs as describing, and "send me" as asking to be given', () => {
      expect(readJob(index, 'which repositories did I create').question).to.equal(true);
      expect(roles('which repositories did I create')).to.deep.equal({ repositories: 'object', create: 'neutral' });
      expect(readJob(index, 'how do I create an issue').question).to.equal(false);
      expect(roles('send me the weather forecast')).to.deep.equal({ send: 'neutral', weather: 'object', forecast: 'object' });
    });

    it('adds the verb a command means when it opens with a noun used as a verb', () => {
      const terms = termsOf('please email Bob the minutes');
      expect(terms.map((term) => [term.word, term.role])).to.deep.equal([['email', 'action'], ['email', 'object'], ['minutes', 'object']]);
      expect(terms[0].alternatives.map((alternative) => alternative.term)).to.include(stem('send'));
      expect(termsOf('email me the forecast').map((term) => term.role)).to.not.include('action');
      expect(termsOf('what email did I get').map((term) => term.role)).to.not.include('action');
    });

    it('reads a synonym phrase as one term', () => {
      const [phrase] = termsOf('an e-mail');
      expect(phrase.word).to.equal('e mail');
      // No fixture task writes "e-mail": the phrase matches through its group's words.
      expect(phrase.alternatives).to.deep.equal([{ term: 'email', weight: SYNONYM_WEIGHT }, { term: 'mail', weight: SYNONYM_WEIGHT }]);
      expect(rank(index, 'send an e-mail', 5).candidates[0].task.id).to.equal('mailer.mail.send');
    });

    it('drops literals and unknown names: they are the task input, not the job', () => {
      const words = termsOf('forecast for Lyon at 10:30, see https://x.example/a and "Some Quoted Thing" or bob@x.example in hapijs/hapi #general cus_9');
      // A #channel's name is input too; that it names a channel is read as the word "channel".
      expect(words.map((term) => term.word)).to.deep.equal(['forecast', 'see', 'channel']);
    });

    it('keeps a capitalised word that names a task, not one only a description mentions', () => {
      expect(termsOf('ask GitCo for issues').map((term) => term.word)).to.deep.equal(['gitco', 'issues']);
      expect(termsOf('weather in Springfield').map((term) => term.word)).to.deep.equal(['weather']);
      expect(termsOf('weather in springfield').map((term) => term.word)).to.deep.equal(['weather', 'springfield']);
      expect(termsOf('get me a pizza').map((term) => term.word)).to.deep.equal(['get', 'pizza']);
    });

    it('reads a year as the word year', () => {
      expect(jobWords('in 2026').map(({ word, stem, literal }) => [word, stem, literal])).to.deep.equal([['in', 'in', false], ['2026', 'year', false]]);
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
      const post = rank(index, 'post', 5).candidates.find((ranked) => ranked.task.id === 'chatco.messages.post')!;
      const publish = rank(index, 'publish', 5).candidates.find((ranked) => ranked.task.id === 'chatco.messages.post')!;
      expect(publish.score).to.be.closeTo(post.score * SYNONYM_WEIGHT, 0.002);
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

    it('needs one of the job\'s object words in a field naming the task, not only in its description', () => {
      // "message" is in the description of "Send an email" only: posting a message is not e-mail.
      expect(ids('post a message to the team channel')).to.deep.equal(['chatco.messages.post']);
      expect(rank(index, 'springfield', 5).candidates).to.deep.equal([]);
      expect(rank(index, 'springfield', 5).nearMisses[0].task.id).to.equal('weatherco.weather.current');
    });

    it('needs a task to cover one of the job\'s object words', () => {
      const ranking = rank(index, 'send a fax to my lawyer', 5);
      expect(ranking.candidates).to.deep.equal([]);
      const mail = ranking.nearMisses.find((ranked) => ranked.task.id === 'mailer.mail.send')!;
      expect(mail.matched).to.deep.equal(['send']);
      expect(mail.missed).to.deep.equal(['fax', 'lawyer']);
    });

    describe('with a task that reads what another writes', () => {
      const history: Task = {
        ...catalog.tasks.get('chatco.messages.post')!,
        id: 'chatco.messages.history',
        capability: 'chat.history',
        kind: 'data',
        title: 'Messages posted to a team channel',
        description: 'The latest chat messages posted to a team channel, with who posted them.',
        keywords: ['history', 'message', 'post', 'channel', 'team'],
      };
      const withHistory = indexFor(variantOf(catalog, 'with-history', { tasks: new Map([...catalog.tasks, [history.id, history]]) }));
      const found = (job: string) => rank(withHistory, job, 5).candidates.map((ranked) => ranked.task.id);

      it('serves a command only by tasks that perform its action: a task reading what was posted does not post', () => {
        expect(found('post a message to the team channel')).to.deep.equal(['chatco.messages.post']);
        expect(found('show the message history of the team channel')[0]).to.equal('chatco.messages.history');
      });

      it('serves a command first by the tasks that change something, among those performing its action', () => {
        // A read task whose own name holds a verb that changes the world does not perform it: it only reads.
        const counts: Task = { ...history, id: 'chatco.messages.post_counts', capability: 'chat.post_counts', title: 'Post counts of a team channel' };
        const withCounts = indexFor(variantOf(catalog, 'with-counts', { tasks: new Map([...catalog.tasks, [counts.id, counts]]) }));
        const ranking = rank(withCounts, 'post an email to the team channel', 5).candidates;
        expect(ranking.map((ranked) => ranked.task.id)).to.deep.equal(['chatco.messages.post', 'mailer.mail.send']);
      });

      it('answers a question only with tasks that read', () => {
        expect(found('what messages were posted to the team channel')).to.deep.equal(['chatco.messages.history']);
        expect(found('which issues are open')).to.deep.equal(['gitco.issues.list']);
      });
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
      // Other suites load other catalogs and may have evicted the module-level index: take this version's now.
      const built = indexFor(catalog);
      expect(indexFor(catalog)).to.equal(built);
      expect(indexFor(fixtureCatalog())).to.equal(built);
      const other = indexFor(variantOf(catalog, 'other-version', { synonyms: [] }));
      expect(other).to.not.equal(built);
      expect(other.version).to.equal('other-version');
    });
  });

  describe('action coverage on the built-in catalog beside a self-hoster\'s file', () => {
    const { catalog: merged } = buildCatalog([...builtinCatalogFiles(), selfHostedCatalogFile], {}, {});
    const builtin = indexFor(merged);
    const first = (job: string) => rank(builtin, job, 5).candidates[0]?.task;

    it('qualifies nothing for a job whose action no task performs, even when its other words appear', () => {
      for (const job of ['unclog the kitchen sink', 'reserve a hotel room in Rome', 'book a massage for tomorrow', 'sell my old bike', 'evolve my Charmander in Pokémon Go']) {
        expect(rank(builtin, job, 5).candidates, job).to.deep.equal([]);
      }
      // In a question the verb describes: the species task reads what a Pokémon evolves into.
      expect(first('what does eevee evolve into')?.id).to.equal('pokeapi.pokemon.species');
      // "book" is a word of book tasks and of adding a calendar event, "tomorrow" of forecasts: close, not candidates.
      const { nearMisses } = rank(builtin, 'book a massage for tomorrow', 5);
      expect(nearMisses.length).to.be.within(1, NEAR_MISSES);
      for (const miss of nearMisses) {
        expect(miss.matched.length).to.be.greaterThan(0);
        expect(miss.missed).to.include('massage');
      }
    });

    it('counts a verb the catalog does not know as the job\'s missed action, never drops it', () => {
      const [verb] = readJob(builtin, 'repaint the holiday cottage').terms;
      expect(verb).to.include({ word: 'repaint', role: 'action' });
      expect(verb.alternatives).to.deep.equal([]);
      const { candidates, nearMisses } = rank(builtin, 'repaint the holiday cottage', 5);
      expect(candidates).to.deep.equal([]);
      expect(nearMisses[0].matched).to.deep.equal(['holiday']);
      expect(nearMisses[0].missed).to.deep.equal(['repaint', 'cottage']);
      // A task's keywords do not make it perform a verb unless it changes something: listing pull requests
      // (keyword "merge") does not merge one.
      expect(rank(builtin, 'merge the open pull request', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'merge the open pull request', 5).nearMisses[0].task.id).to.equal('github.pulls.list');
    });

    it('reads a verb with its particle as one action ("turn on"), which no task performs', () => {
      expect(readJob(builtin, 'turn on the sprinklers if it has not rained today').terms[0]).to.include({ word: 'turn on', role: 'action' });
      expect(rank(builtin, 'turn on the sprinklers if it has not rained today', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'switch off the heating, it is warm', 5).candidates).to.deep.equal([]);
      // Words that are names of object properties are words like any other.
      expect(readJob(builtin, 'constructor up the tostring of valueof').terms.map((term) => term.word)).to.deep.equal(['constructor', 'tostring', 'valueof']);
    });

    it('qualifies nothing when the thing a job asks to see is unknown ("find a plumber")', () => {
      expect(readJob(builtin, 'find a plumber available tomorrow').sought?.word).to.equal('plumber');
      expect(rank(builtin, 'find a plumber available tomorrow', 5).candidates).to.deep.equal([]);
      expect(first('find some novels by Zadie Smith')?.capability).to.equal('books.search');
    });

    it('still finds the task of paraphrased real jobs', () => {
      expect(first('is it going to be sunny in Madrid tomorrow')?.capability).to.equal('weather.forecast');
      expect(first('ping my client by SMS that the parcel left')?.id).to.equal('textly.sms.send');
      expect(first('mark the laundry chore as finished')?.id).to.equal('chores.todo.complete');
      expect(first('should I pack an umbrella for Amsterdam next week')?.capability).to.equal('weather.forecast');
    });

    it('reads a yes-or-no question as a question, but not a polite command', () => {
      expect(readJob(builtin, 'should I pack an umbrella').question).to.equal(true);
      expect(readJob(builtin, 'any unread mail').question).to.equal(true);
      expect(readJob(builtin, 'will you send an email to Bob').question).to.equal(false);
    });

    it('lets a task that changes something and performs the deed a command names do it ("post a comment")', () => {
      expect(readJob(builtin, 'post a comment on github issue 7').terms[0].object?.word).to.equal('comment');
      expect(first('post a comment on github issue 7')?.id).to.equal('github.issues.comment');
      // An object that names no deed lends the verb nothing: deleting a repository is not opening an issue.
      expect(rank(builtin, 'delete the github repository', 5).candidates).to.deep.equal([]);
    });

    it('reads an action verb after a preposition as a noun, "open" before a noun as describing it and before "a" as making one, a date as a date', () => {
      expect(readJob(builtin, 'my github repos sorted by update').terms.map((term) => term.role)).to.not.include('action');
      expect(readJob(builtin, 'list open issues on github').terms.map((term) => term.word)).to.deep.equal(['list', 'issues', 'github']);
      expect(first('list open issues on github')?.id).to.equal('github.issues.list');
      expect(readJob(builtin, 'open an issue about the crash').terms[0]).to.include({ word: 'open', role: 'action' });
      expect(first('open an issue about the crash')?.id).to.equal('github.issues.create');
      expect(jobWords('usd rate on 2019-06-14.').at(-1)).to.deep.equal({ word: '2019-06-14', stem: 'date', literal: false, nameLike: false, given: 'date', ends: '.' });
    });

    it('finds a word with a letter left out or one too many, but not a changed letter that makes another word', () => {
      expect(first('wether in Oslo now')?.capability).to.equal('weather.current');
      expect(first('forcast for Boston')?.capability).to.equal('weather.forecast');
      const massage = readJob(builtin, 'book a massage').terms.find((term) => term.word === 'massage')!;
      expect(massage.alternatives).to.deep.equal([]);
      expect(readJob(builtin, 'wether').terms[0].alternatives).to.deep.equal([{ term: 'weather', weight: FUZZY_WEIGHT }]);
      // A letter left out of a word's ending changes its stem: the slip is found among the catalog's words as written.
      expect(first('what does the levitate ablity do')?.id).to.equal('pokeapi.ability.get');
      expect(first('show all our stripe custmers')?.id).to.equal('stripe.customers.list');
      // A letter more there makes another word: a tablet is no table.
      expect(readJob(builtin, 'reading on my tablet').terms.find((term) => term.word === 'tablet')!.alternatives).to.deep.equal([]);
    });

    it('prefers the sibling requiring an argument the job gives: a clock time, a date, a topic to search for', () => {
      expect(jobWords('at 5pm').at(-1)).to.include({ word: '5pm', literal: true, given: 'time' });
      expect(first('what is 9am New York time in London')?.id).to.equal('builtin.time.convert');
      expect(first('what time is it in Tokyo')?.id).to.equal('builtin.time.now');
      expect(first('exchange rate on my birthday in 1999')?.id).to.equal('frankfurter.currency.historical');
      expect(first('any news about the olympics')?.id).to.equal('newsapi.articles.search');
      expect(first('top headlines today')?.id).to.equal('newsapi.headlines.top');
      // The topic counts less than what is asked for: "history" is Rome's, not the task's.
      expect(readJob(builtin, 'look for books about the history of Rome').terms.find((term) => term.word === 'history')).to.include({ topic: true });
      expect(first('look for books about the history of Rome')?.id).to.equal('openlibrary.books.search');
    });

    it('fits a task requiring a start and an end date to a job giving two dates or a span, and one requiring a date to a single date', () => {
      expect(readJob(builtin, 'how much was a dollar in yen on January 2nd 2019').gives & GIVES_RANGE).to.equal(0);
      expect(readJob(builtin, 'show how EUR/USD moved from 1 Jan to 31 Mar 2024').gives & GIVES_RANGE).to.equal(GIVES_RANGE);
      expect(readJob(builtin, 'how has the yen trended vs the euro since january').gives & GIVES_RANGE).to.equal(GIVES_RANGE);
      expect(first('how much was a dollar in yen on January 2nd 2019')?.id).to.equal('frankfurter.currency.historical');
    });

    it('ranks a task working on an amount after its siblings unless the job gives a number that is not a date', () => {
      expect(first('latest EUR rates against USD, GBP and JPY')?.id).to.equal('frankfurter.currency.rates');
      // Strongly enough that the currencies converting names among its keywords do not outweigh it.
      expect(first('hey, latest euro rates vs dollar, pound and yen?')?.id).to.equal('frankfurter.currency.rates');
      expect(first('convert 100 usd to eur')?.id).to.equal('frankfurter.currency.convert');
      expect(jobWords('between Oct 1 and Oct 31').filter((word) => word.given).map((word) => word.word)).to.deep.equal(['oct', '1', 'oct', '31']);
      expect(readJob(builtin, 'usd against the euro between Oct 1 and Oct 31 2023').gives & GIVES_AMOUNT).to.equal(0);
    });

    it('prefers the sibling requiring a repository for a job giving a path, and base64 input for base64 data', () => {
      expect(readJob(builtin, 'show the github repo stats for rails/rails').gives & GIVES_PATH).to.equal(GIVES_PATH);
      expect(readJob(builtin, 'lat/lon of Springfield').gives & GIVES_PATH).to.equal(0);
      expect(first('show the github repo stats for rails/rails')?.id).to.equal('github.repo.get');
      expect(jobWords('aGVsbG8= hello')[0].encoded).to.equal(true);
      expect(jobWords('aGVsbG8= hello')[1]).to.include({ word: 'base64', encoded: true });
      expect(jobWords('aGVsbG8= hello')[2].encoded).to.equal(undefined);
      expect(first('what does this base64 say: SGVsbG8gV29ybGQ=')?.id).to.equal('builtin.base64.decode');
      expect(first('base64 this: hello world')?.id).to.equal('builtin.base64.encode');
    });

    it('ranks a task reading one record by id after its siblings unless the job names one', () => {
      expect(first('who are my stripe customers')?.id).to.equal('stripe.customers.list');
      expect(first('get stripe customer cus_ABC123')?.id).to.equal('stripe.customers.get');
    });

    it('reads "my" before what the job asks for, not where it looks ("the issues in my repo")', () => {
      expect(readJob(builtin, 'my github repos sorted by update').terms.map((term) => term.word)).to.include('my');
      expect(readJob(builtin, 'list the open issues in my repo').terms.map((term) => term.word)).to.not.include('my');
      expect(first('my github repos sorted by update')?.id).to.equal('github.repos.list');
      expect(first('list the open issues in my repo')?.id).to.equal('github.issues.list');
    });

    it('reads a slash between known words as "and", and a path of unknown ones as a literal', () => {
      expect(readJob(builtin, 'I need lat/lon for Springfield').terms.map((term) => term.word)).to.deep.equal(['lat', 'lon']);
      expect(readJob(builtin, 'star hapijs/hapi').terms.map((term) => term.word)).to.deep.equal(['star']);
      expect(first('find where Springfield is, I need lat/lon')?.capability).to.equal('geocode.search');
    });

    it('qualifies nothing for a job about a product or service no task is named by, held by someone ("my Dropbox files")', () => {
      for (const job of ['list my Dropbox files', "react to Jane's LinkedIn post with a thumbs up", 'check the balance on my Starbucks gift card']) {
        expect(readJob(builtin, job).elsewhere, job).to.equal(true);
        expect(rank(builtin, job, 5).candidates, job).to.deep.equal([]);
      }
      // A name some task is named by, a name that is the job's input, a quoted name: the job is the catalog's.
      expect(first('list my GitHub repos')?.id).to.equal('github.repos.list');
      expect(readJob(builtin, 'is it raining in Paris').elsewhere).to.equal(false);
      expect(readJob(builtin, "what's the id of my 'Work' calendar").elsewhere).to.equal(false);
      expect(jobWords("Tom's wall").map((word) => word.possessive)).to.deep.equal([true, undefined]);
      // So is a thing no task knows owning what is asked for: "my laptop's time zone" is not a time to convert.
      expect(rank(builtin, "change my laptop's time zone to CET", 5).candidates).to.deep.equal([]);
      expect(first("what's the time in Sam's time zone")?.capability).to.match(/^time\./);
      // A name a task has only among its keywords, as a common word ("outlook" for a forecast), held by the asker is a product's.
      expect(rank(builtin, 'read my Outlook inbox', 5).candidates).to.deep.equal([]);
      expect(first('read my Gmail inbox')?.id).to.match(/^google\.gmail\./);
      expect(first('weather outlook for Berlin')?.capability).to.match(/forecast/);
    });

    it('reads text in single quotes as quoted, but not an apostrophe', () => {
      expect(readJob(builtin, "post 'deploy finished' in #eng").terms.map((term) => term.word)).to.deep.equal(['post', 'channel']);
      expect(first("post 'deploy finished' in #eng")?.id).to.equal('slack.chat.post');
      expect(quotes("list everything in our Airtable 'Inventory' table")).to.equal(true);
      expect(quotes("what's in Tom's inbox")).to.equal(false);
    });

    it('does not read an address, a #channel or a count ("the last 20") as identifying a record', () => {
      expect(readJob(builtin, 'do I have mail from noreply@github.com').identifies).to.equal(false);
      expect(first('do I have mail from noreply@github.com')?.id).to.equal('google.gmail.messages.list');
      expect(readJob(builtin, 'last 20 messages in #design').identifies).to.equal(false);
      const alone = indexFor(buildCatalog(builtinCatalogFiles(), {}, {}).catalog);
      expect(rank(alone, 'last 20 messages in #design', 5).candidates[0]?.task.id).to.equal('slack.conversations.history');
      expect(readJob(builtin, 'read hn item 20').identifies).to.equal(true);
    });

    it('needs a task making a thing to name the thing a creating verb asks for ("create a GitHub repository")', () => {
      expect(readJob(builtin, 'create a new GitHub repository named widgets').terms[0].thing?.word).to.equal('repository');
      expect(rank(builtin, 'create a new GitHub repository named widgets', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'create a new Slack channel called #launch', 5).candidates).to.deep.equal([]);
      // Named in the task's capability or id, not only its title or keywords: commenting on a pull request does not make one.
      expect(rank(builtin, 'create a pull request from branch feature-x to main', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, "create a note called 'groceries' in Apple Notes", 5).candidates).to.deep.equal([]);
      expect(first('add a comment to github issue 7 saying thanks')?.id).to.equal('github.issues.comment');
      expect(first('create a new github issue about the crash')?.id).to.equal('github.issues.create');
      expect(first('add a new row to the airtable table')?.id).to.equal('airtable.records.create');
    });

    it('serves a job naming a provider only by that provider\'s tasks ("reply to the hacker news comment")', () => {
      expect(rank(builtin, 'reply to the hacker news comment 8863', 5).candidates).to.deep.equal([]);
      expect(first('reply to the github comment on issue 7')?.id).to.equal('github.issues.comment');
      // "news" is not a provider's name: NewsAPI's tasks are named by it too.
      expect(builtin.providerNames.has('news')).to.equal(false);
      // A slash after a provider's name is a path ("acme/api", when a provider is named acme), not "and".
      expect(readJob(builtin, 'what issues are open in acme/api').terms.map((term) => term.word)).to.not.include('acme');
    });

    it('meets a verb naming one transformation only by a task performing it ("decrypt" is not hashing)', () => {
      expect(rank(builtin, 'decrypt this sha256 hash', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'shorten this URL with bit.ly', 5).candidates).to.deep.equal([]);
      expect(first('compute an md5 checksum of hello')?.id).to.equal('builtin.text.hash');
    });

    it('reads a verb opening a command that means another verb as the deed only ("raise seed capital")', () => {
      expect(readJob(builtin, 'raise seed capital for my startup').terms.find((term) => term.word === 'raise' && term.role !== 'action')?.role).to.equal('neutral');
      expect(rank(builtin, 'raise seed capital for my startup', 5).candidates).to.deep.equal([]);
      expect(first('raise a bug in github about the crash')?.id).to.equal('github.issues.create');
      expect(first('email my boss the report')?.capability).to.equal('email.send');
    });

    it('lets a task performing a result verb by name take the words after it as input ("slugify My First Blog Post")', () => {
      expect(first('slugify My First Blog Post!')?.id).to.equal('builtin.text.slugify');
      expect(readJob(builtin, 'pull out the price from this json').terms[0]).to.include({ word: 'pull out', role: 'action' });
      expect(first('pull out items[0].price from that document')?.id).to.equal('builtin.json.extract');
      expect(first('use resend to fire off a welcome mail to new.user@example.com')?.id).to.equal('resend.email.send');
    });

    it('needs a task knowing what a verb saying only the result works on ("convert this video to mp4")', () => {
      expect(rank(builtin, 'convert this video to mp4', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'convert this image from png to jpg', 5).candidates).to.deep.equal([]);
      expect(first('convert 100 usd to eur')?.capability).to.equal('currency.convert');
      expect(first('define ubiquitous')?.id).to.equal('dictionaryapi.word.define');
    });

    it('reads a name no task is named by as a service the catalog lacks: before a known thing after "my" or "a", or ending the job after "on"', () => {
      expect(readJob(builtin, 'list my Apple Calendar events').elsewhere).to.equal(true);
      expect(rank(builtin, 'create a Jira ticket for the login bug', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'create a Trello card for the bug', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'post this update on LinkedIn', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'send a direct message to Tom on Microsoft Teams', 5).candidates).to.deep.equal([]);
      // Title case is the input's ("My First Blog Post"), a chunk with digits is a value ("a v4 uuid"), and a
      // name followed by more words after "on" may be a topic.
      expect(first('slugify My First Blog Post!')?.id).to.equal('builtin.text.slugify');
      expect(first('make me a v4 uuid')?.id).to.equal('builtin.uuid.generate');
      expect(readJob(builtin, 'summarize the wiki page on Byzantine fault tolerance').elsewhere).to.equal(false);
      // What a search verb looks in ("search Reddit for", "search my OneDrive for").
      expect(rank(builtin, 'search Reddit for posts about mechanical keyboards', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'search my OneDrive for the budget file', 5).candidates).to.deep.equal([]);
      expect(first('search wikipedia for the eiffel tower')?.id).to.equal('wikipedia.search');
    });

    it('qualifies nothing when what the job asks about is in or of the asker\'s thing no task knows ("the rate on my mortgage")', () => {
      expect(rank(builtin, "what's the interest rate on my mortgage", 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'check the status of my visa application', 5).candidates).to.deep.equal([]);
      // Someone the job names (from my boss) is not where it looks.
      expect(first('any unread mail from my boss?')?.id).to.equal('google.gmail.messages.list');
    });

    it('reads a participle no task knows before a thing some task does as describing it, not as what is sought ("list closed issues")', () => {
      expect(readJob(builtin, 'list closed issues in acme/widgets').sought?.word).to.equal('issues');
      expect(rank(builtin, 'Retrieve the authenticated Google user\'s info', 5).candidates.map((ranked) => ranked.task.id)).to.include('google.userinfo.get');
      // Any other word no task knows is still what is sought ("a plumber available tomorrow").
      expect(rank(builtin, 'find a plumber available tomorrow', 5).candidates).to.deep.equal([]);
    });

    it('reads an emoji code (":thumbsup:") as a value and "gimme" as asking to see', () => {
      expect(termsOf('add a :thumbsup: to that message').map((term) => term.word)).to.deep.equal(['add', 'emoji', 'message']);
      expect(first('add a :thumbsup: to that slack message ts 1712345678.000100 in #eng')?.id).to.equal('slack.reactions.add');
      expect(readJob(builtin, 'gimme the front page of Hacker News')).to.include({ asksToSee: true });
      expect(first('gimme the front page of Hacker News')?.id).to.equal('hacker-news.stories.top');
    });

    it('reads "rn" as now ("is it raining in Manchester rn" is the weather now)', () => {
      expect(readJob(builtin, 'is it raining in Manchester rn').terms.find((term) => term.word === 'rn')?.role).to.equal('modifier');
      expect(first('is it raining in Manchester rn')?.capability).to.equal('weather.current');
    });

    it('lets a task that changes nothing perform no deed that changes the world ("Book details by ISBN" does not book)', () => {
      expect(rank(builtin, 'schedule a tweet for 9am tomorrow announcing the launch', 5).candidates).to.deep.equal([]);
      // A verb right before what is known about a thing names that thing.
      expect(readJob(builtin, 'book info for isbn 9780441013593').terms[0]).to.include({ word: 'book', role: 'object' });
      expect(first('book info for isbn 9780441013593')?.id).to.equal('openlibrary.books.by_isbn');
    });

    it('reads a last clause asking about nothing of its own ("..., where do I start?") as no question about the world', () => {
      expect(readJob(builtin, 'I want to adopt a dog from a shelter near my city, where do I start?').question).to.equal(false);
      expect(rank(builtin, 'I want to adopt a dog from a shelter near my city, where do I start?', 5).candidates).to.deep.equal([]);
      expect(readJob(builtin, "if it's 3pm in London, what time is that in New York").question).to.equal(true);
    });

    it('opens the command after a label ("step 1:") and after a preface naming the means ("use Gmail to", "via Resend,")', () => {
      expect(first('step 7: use Gmail to email the weekly report to boss@corp.com')?.id).to.equal('google.gmail.send');
      expect(first('step 5: via Resend, mail the receipt to billing@acme.io')?.id).to.equal('resend.email.send');
      expect(first('resend: email jane@client.com the invoice link')?.id).to.equal('resend.email.send');
      // Words some task is named by say what the job is: "new todo:" is not a label.
      expect(readJob(builtin, 'new stripe customer: Globex Inc, ap@globex.com').terms.map((term) => term.role)).not.to.include('action');
    });

    it('reads a word ending as a description does ("outstanding", "biggest") or a hyphenated one before a known thing as describing it', () => {
      expect(readJob(builtin, 'give me the biggest technology headlines right now').sought?.word).to.equal('technology');
      expect(first('get the outstanding tickets for vercel/next.js on GitHub')?.id).to.equal('github.issues.list');
      expect(first("make a web-safe permalink from 'Über die Brücke'")?.id).to.equal('builtin.text.slugify');
      // A describing word some task knows is not what is sought either: "driving directions" are not Drive's.
      expect(rank(builtin, 'get driving directions from home to the airport', 5).candidates).to.deep.equal([]);
      // A noun no task knows is still what is sought ("the tide times").
      expect(rank(builtin, 'show the tide times for Brighton', 5).candidates).to.deep.equal([]);
    });

    it('reads a read verb\'s -ing form after a noun as describing it, and a verb meaning another as seeking nothing', () => {
      expect(readJob(builtin, 'raise a GitHub issue in org/api describing the failing CI test').sought).to.equal(undefined);
      expect(first('raise a GitHub issue in org/api describing the failing CI test')?.id).to.equal('github.issues.create');
      expect(first('shoot a welcome email to newuser@widgets.dev via resend')?.id).to.equal('resend.email.send');
    });

    it('meets a verb asking for another form ("convert") only by a task performing it, not by any task that reads', () => {
      expect(rank(builtin, 'convert this pdf to a word doc', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'convert this json to csv', 5).candidates).to.deep.equal([]);
      expect(first('convert 5 miles to km')?.id).to.equal('builtin.units.convert');
      expect(first('exchange 100 usd to eur')?.capability).to.equal('currency.convert');
    });

    it('reads a time zone\'s abbreviation or IANA name as a time zone, an ISO date and time as a time, and a JSON document as one', () => {
      expect(jobWords('3pm PST in America/Chicago').map((word) => word.stem)).to.deep.equal(['3pm', stem('timezone'), 'in', stem('timezone')]);
      expect(first('3pm PST in CET?')?.id).to.equal('builtin.time.convert');
      expect(first('convert 2025-06-01T14:00Z to America/Chicago')?.id).to.equal('builtin.time.convert');
      expect(first('get the current timestamp in UTC')?.id).to.equal('builtin.time.now');
      expect(readJob(builtin, 'get the status field out of {"status":"ok","code":200}').gives & GIVES_DOCUMENT).to.equal(GIVES_DOCUMENT);
      expect(first('get the status field out of {"status":"ok","code":200}')?.id).to.equal('builtin.json.extract');
    });

    it('reads a #channel as naming a channel and an emoji code as naming an emoji, whatever their names', () => {
      expect(termsOf('post deploy done in #eng').map((term) => term.word)).to.include('channel');
      expect(first('post deploy done in #eng')?.id).to.equal('slack.chat.post');
      expect(first('what have people said in #support today')?.id).to.equal('slack.conversations.history');
      expect(readJob(builtin, 'post deploy done in #eng').identifies).to.equal(false);
      // Counting things with no verb, or describing them as open, asks to see them.
      expect(readJob(builtin, 'last 20 messages in #design').asksToSee).to.equal(true);
      expect(first('open bugs in acme/widgets')?.id).to.equal('github.issues.list');
      // An emoji code names an emoji, whatever it is.
      expect(first('react with :tada: to the announcement in #general (ts 1700000000.123)')?.id).to.equal('slack.reactions.add');
      // "fresh", like "new", says which.
      expect(readJob(builtin, 'give me a fresh v4 unique id for a db row').terms.find((term) => term.word === 'fresh')?.role).to.equal('modifier');
    });

    it('reads a synonym of a thing sent opening a command as that thing does, and a later clause\'s opener too', () => {
      expect(readJob(builtin, "gmail boss@acme.com 'running 10 min late'").terms[0]).to.include({ word: 'gmail', role: 'action' });
      expect(first("gmail boss@acme.com 'running 10 min late'")?.id).to.equal('google.gmail.send');
      expect(first('msg #incidents: sev2 resolved, rca to follow')?.id).to.equal('slack.chat.post');
      expect(first("we're mid-incident, pls drop a note in #status on slack saying api latency elevated, eta 30m")?.id).to.equal('slack.chat.post');
    });

    it('reads a job opening with "anything" as a yes-or-no question, and knows gcal, tldr, atm, "set up", "change", "what is it like outside" and "who is in"', () => {
      expect(readJob(builtin, 'anything in my gmail from pagerduty today?').question).to.equal(true);
      expect(first('anything in my gmail from pagerduty today?')?.id).to.equal('google.gmail.messages.list');
      expect(first('list my gcal calendars, shared + personal')?.id).to.equal('google.calendar.calendars.list');
      expect(first('tldr on the raft consensus algorithm')?.id).to.equal('wikipedia.page.summary');
      expect(first('set up dan@startup.io as a customer in stripe pls')?.id).to.equal('stripe.customers.create');
      expect(first('change the SendGrid contact for tom@site.org, his last name is now Baker')?.id).to.equal('sendgrid.contacts.upsert');
      expect(first("hey, what's it like outside in Lisbon right now?")?.capability).to.equal('weather.current');
      expect(first("who's in our slack")?.id).to.equal('slack.users.list');
      expect(first('get the present temperature and wind speed in Nairobi')?.capability).to.equal('weather.current');
    });

    it('needs a creating verb\'s thing to be what the task makes (the part before its verb), not where it makes it', () => {
      expect(rank(builtin, 'create a new table in airtable called Vendors', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, "create a new google calendar called 'Gym'", 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'create a new charge of $20 for customer cus_55', 5).candidates).to.deep.equal([]);
      expect(first('add a record to the Vendors airtable')?.id).to.equal('airtable.records.create');
      expect(first('create a calendar event for friday 3pm')?.id).to.equal('google.calendar.events.create');
      // A word saying which things a task reads ("stories.new") is no deed it performs.
      expect(rank(builtin, 'create a Hacker News post about our launch', 5).candidates).to.deep.equal([]);
    });

    it('reads a keyword that is a phrase of the vocabulary as one deed: "set up" does not set a timer', () => {
      expect(rank(builtin, 'set a timer for 10 minutes', 5).candidates).to.deep.equal([]);
      expect(first('set up an appointment in my calendar to call the bank at 9 tomorrow')?.id).to.equal('google.calendar.events.create');
    });

    it('reads a command\'s first word no task knows as its verb before a provider\'s name or before a word no task knows and a preposition', () => {
      expect(rank(builtin, 'upvote hn story 41234567', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'kick bob from the slack workspace', 5).candidates).to.deep.equal([]);
      // Not later in the job, nor before a word some task knows.
      expect(first('tell me about the eiffel tower from wikipedia')?.id).to.equal('wikipedia.page.summary');
      expect(first('charizard base stats')?.id).to.equal('pokeapi.pokemon.get');
    });

    it('reads "issue" opening a command before a determiner as its verb, making what its object names ("issue a refund")', () => {
      expect(rank(builtin, 'issue a payout from stripe balance to our bank account', 5).candidates).to.deep.equal([]);
      expect(first('issue a refund for that payment')?.id).to.equal('stripe.refunds.create');
      // A provider's name before the object says whose: the deed follows it.
      expect(first('issue a $40 stripe refund on pi_3NqK2aLkdIwHu7ix asap')?.id).to.equal('stripe.refunds.create');
      expect(first('reply to issue #42 in acme/api saying thanks')?.id).to.equal('github.issues.comment');
    });

    it('reads what follows a colon after a command\'s action as its content, not as job words', () => {
      expect(termsOf('please file a bug in acme/webapp on github: login button does nothing on Safari').map((term) => term.word)).not.to.include('button');
      expect(first('please file a bug in acme/webapp on github: login button does nothing on Safari')?.id).to.equal('github.issues.create');
    });

    it('knows deeds on accounts and systems no task performs ("enable", "scale", "revoke")', () => {
      expect(rank(builtin, 'enable two-factor authentication on Slack', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'scale the api deployment to 5 replicas in the us-east region', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'revoke the github token I made yesterday', 5).candidates).to.deep.equal([]);
    });

    it('reads a well-known service written in lower case as a name, and where the job is done on it as a service the catalog lacks', () => {
      expect(rank(builtin, 'send a whatsapp message to my sister', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'list files in dropbox /contracts', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'post in the discord #announcements channel', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'post this on my instagram', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'upload the photo to dropbox', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'schedule an Uber to pick me up at 7am', 5).candidates).to.deep.equal([]);
      // Named where a catalog provider does the job, or as what is read about, it is the job's content.
      expect(first('search my gmail for emails from paypal')?.id).to.equal('google.gmail.messages.list');
      expect(first('search github for discord bots')?.id).to.equal('github.repos.search');
      expect(first('post a message in #general saying the youtube video is live')?.id).to.equal('slack.chat.post');
      expect(first('latest news on bitcoin')?.provider).to.equal('newsapi');
    });

    it('reads a service named as the means ("via", "through", "using") or opening the job as its verb as where the job is done', () => {
      expect(rank(builtin, 'send the weekly report through WhatsApp', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'ping the on-call engineer using PagerDuty', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'whatsapp my landlord that the heating is broken', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'how much annual leave do I have left in BambooHR', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'post the release notes in the Microsoft Teams channel', 5).candidates).to.deep.equal([]);
      // Through a catalog provider, or as what is read about, it is still the job's content.
      expect(first('post the deploy notice to #ops through slack')?.id).to.equal('slack.chat.post');
      expect(first('news about Microsoft layoffs')?.id).to.equal('newsapi.articles.search');
    });

    it('reads "so I can ..." after a command as what the caller does next, however "I" is written', () => {
      expect(readJob(builtin, 'list the public slack channels so I can choose one').terms.map((term) => term.word)).to.not.include('choose');
      expect(first('list the public slack channels so I can choose one')?.id).to.equal('slack.conversations.list');
    });

    it('knows British and North American names of things: a diary is a calendar, statutory and federal holidays are public holidays', () => {
      expect(first("what's in my diary on Thursday")?.provider).to.equal('google');
      expect(first("what's in my diary on Thursday")?.id).to.equal('google.calendar.events.list');
      expect(first('statutory holidays in Ontario, Canada in 2026')?.id).to.equal('nager-date.holidays.year');
      expect(first('federal holidays in the US for 2027')?.id).to.equal('nager-date.holidays.year');
    });

    it('reads "on" after a writing as its topic ("books on Ancient Rome"), and after a deed as where it is done ("sell my bike on Craigslist")', () => {
      expect(first('wikipedia article on Marie Curie')?.provider).to.equal('wikipedia');
      expect(first('books on Ancient Rome')?.id).to.equal('openlibrary.books.search');
      expect(first('news on Tesla')?.provider).to.equal('newsapi');
      // Nor is a service in the topic of a writing where the job is done.
      expect(first('articles about a Tesla recall')?.id).to.equal('newsapi.articles.search');
      expect(first('news about an amazon warehouse strike')?.id).to.equal('newsapi.articles.search');
      expect(rank(builtin, 'sell my old bike on Craigslist', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'post it on Reddit', 5).candidates).to.deep.equal([]);
    });

    it('reads a name its asker holds as a record\'s name in a job naming a catalog provider ("our Tasks table on airtable")', () => {
      expect(readJob(builtin, "what's in our Tasks table on airtable where Status = 'Open'").elsewhere).to.equal(false);
      expect(first("what's in our Tasks table on airtable where Status = 'Open'")?.id).to.equal('airtable.records.list');
      // Naming no catalog provider, it is still a product somewhere else.
      expect(readJob(builtin, 'list my Dropbox files').elsewhere).to.equal(true);
    });

    it('reads what the caller does next ("to scan for ...", "before calling ...") as no part of the job, and a number before latest or a superlative as a count', () => {
      const job = 'agent step: get the 20 latest HN submissions to scan for mentions of our product';
      expect(readJob(builtin, job).terms.map((term) => term.word)).to.not.include('mentions');
      expect(readJob(builtin, job).elsewhere).to.equal(false);
      expect(readJob(builtin, job).identifies).to.equal(false);
      expect(first(job)?.id).to.equal('hacker-news.stories.new');
      expect(readJob(builtin, 'get the coordinates of Springfield before calling the weather API').terms.map((term) => term.word)).to.not.include('weather');
      // "to" before a thing or a name is where something goes, not a purpose.
      expect(first('convert 5 km to miles')?.id).to.equal('builtin.units.convert');
      expect(readJob(builtin, 'add lunch with Kim to my calendar').terms.map((term) => term.word)).to.include('calendar');
    });

    it('reads call, invoke or hit before a service\'s name or an API as asking for what the call gives', () => {
      expect(readJob(builtin, "call OWM for the upcoming week's predictions in Chicago").terms[0].role).to.equal('neutral');
      expect(first("step 3: call OWM for the upcoming week's predictions in Chicago")?.id).to.equal('openweathermap.weather.forecast');
      expect(readJob(builtin, 'call the weather api for Paris').terms[0].role).to.equal('neutral');
      // Calling someone is a deed no task does.
      expect(readJob(builtin, 'call Mom tonight').terms[0].role).to.equal('action');
      expect(rank(builtin, 'call the plumber about the leak', 5).candidates).to.deep.equal([]);
    });

    it('reads a word no task knows after a describing word and before a known thing as describing it too ("trending javascript repos")', () => {
      expect(readJob(builtin, 'find trending javascript repos on github').sought?.word).to.equal('repos');
      expect(first('find trending javascript repos on github')?.id).to.equal('github.repos.search');
      // Alone, a word no task knows before a known thing is what is sought: a thing the catalog lacks ("find gold
      // prices"); in a job naming a catalog provider it is the kind of that provider's record.
      expect(readJob(builtin, 'find javascript repos').sought?.word).to.equal('javascript');
      expect(readJob(builtin, 'find javascript repos on github').sought?.word).to.equal('repos');
      expect(first('find javascript repos on github')?.id).to.equal('github.repos.search');
      expect(first('show me yesterday\'s card payments in stripe')?.id).to.equal('stripe.charges.list');
      expect(rank(builtin, 'show me the gold price', 5).candidates).to.deep.equal([]);
    });

    it('reads a verb\'s -s form after that, which or who as the verb ("a tool that deletes a message")', () => {
      const terms = readJob(builtin, 'need a tool that deletes a message I posted in a Slack channel').terms;
      expect(terms.find((term) => term.word === 'delete')?.role).to.equal('action');
      expect(rank(builtin, 'need a tool that deletes a message I posted in a Slack channel', 5).candidates).to.deep.equal([]);
      expect(readJob(builtin, 'a tool that lists the public holidays of a country').terms.find((term) => term.word === 'list')?.role).to.equal('neutral');
      // Elsewhere an -s form is a thing ("lists of holidays"), and in a question it is left as it is.
      expect(readJob(builtin, 'which country uses the euro').terms.map((term) => term.word)).to.include('uses');
    });

    it('reads a label saying who asks ("user asks:") as no part of the job, and the command as opening after it', () => {
      expect(readJob(builtin, 'user asks: what have people been saying in #general on Slack today?').terms.map((term) => term.word)).to.not.include('user');
      expect(first('user asks: what have people been saying in #general on Slack today?')?.id).to.equal('slack.conversations.history');
      expect(first("user asks: tell the #team channel on Slack I'm running late")?.id).to.equal('slack.chat.post');
      // Another label's words may say what the job is about.
      expect(readJob(builtin, 'Drive query: budget spreadsheets').terms.map((term) => term.word)).to.include('drive');
    });

    it('knows a provider named by capitalised words run together by their initials ("OWM" for OpenWeatherMap)', () => {
      expect(first('user asks: use OWM and tell me the forecast for Madrid through the weekend')?.id).to.equal('openweathermap.weather.forecast');
      expect(readJob(builtin, 'owm forecast for Oslo').terms[0].alternatives.map((alternative) => alternative.term)).to.include(stem('openweathermap'));
    });

    it('reads a provider named by a synonym ("GH") as naming a catalog provider, and a people\'s word or a name before an unknown word as no product', () => {
      expect(readJob(builtin, 'all my GH projects').elsewhere).to.equal(false);
      expect(first('all my GH projects')?.id).to.equal('github.repos.list');
      // "a British pound" is where a pound is from; "a Basic auth header" names no thing some task knows.
      expect(readJob(builtin, 'what was a British pound worth in dollars on 24 June 2016?').elsewhere).to.equal(false);
      expect(readJob(builtin, "encode 'user:pass' as base64 for a Basic auth header").elsewhere).to.equal(false);
      expect(first("encode 'user:pass' as base64 for a Basic auth header")?.id).to.equal('builtin.base64.encode');
      expect(readJob(builtin, 'create a Jira ticket for the login bug').elsewhere).to.equal(true);
    });

    it('reads an opener before and, or, of as a thing, enumerate as asking to see, and a parameter\'s setting as a word and an argument naming no record', () => {
      expect(readJob(builtin, 'text and author of Hacker News comment 2921983').terms.every((term) => term.role !== 'action')).to.equal(true);
      expect(first('need: text and author of Hacker News comment 2921983')?.id).to.equal('hacker-news.item.get');
      expect(readJob(builtin, "gmail query 'from:amazon newer_than:7d'").terms.every((term) => term.role !== 'action')).to.equal(true);
      expect(readJob(builtin, 'enumerate the African states').terms[0].role).to.equal('neutral');
      expect(jobWords('limit=50').map((word) => [word.word, word.literal])).to.deep.equal([['limit', false], ['50', true]]);
      expect(readJob(builtin, 'enumerate Stripe clients, limit=50').identifies).to.equal(false);
      expect(first('enumerate Stripe clients, limit=50')?.id).to.equal('stripe.customers.list');
      expect(readJob(builtin, 'rates between start=2020-03-01 end=2020-04-30').gives & GIVES_RANGE).to.equal(GIVES_RANGE);
      expect(readJob(builtin, 'rates between start=2020-03-01 end=2020-04-30').terms.every((term) => term.role !== 'action')).to.equal(true);
    });

    it('reads a two-word name before a known thing as a kind elsewhere, a deed after "without" as ruled out, and "leave" writing on a thing as the deed', () => {
      expect(readJob(builtin, 'post a message to a Microsoft Teams channel').elsewhere).to.equal(true);
      expect(readJob(builtin, 'order a New York bagel').elsewhere).to.equal(false);
      expect(readJob(builtin, 'save a draft in my Gmail without sending it').terms.map((term) => term.word)).to.not.include('sending');
      expect(rank(builtin, 'save a draft in my Gmail without sending it', 5).candidates).to.deep.equal([]);
      expect(first('need: leave a review note on PR #88 in octo/widgets saying LGTM')?.id).to.equal('github.issues.comment');
      expect(first('leave a comment on github issue 7')?.id).to.equal('github.issues.comment');
    });

    it('fits a #channel to a task requiring a channel ("fetch the last 50 posts in Slack #incidents")', () => {
      expect(readJob(builtin, 'fetch the last 50 posts in Slack #incidents').gives & GIVES_CHANNEL).to.equal(GIVES_CHANNEL);
      expect(first('fetch the last 50 posts in Slack #incidents')?.id).to.equal('slack.conversations.history');
      expect(first('what did ppl say in #incidents over the past hour')?.id).to.equal('slack.conversations.history');
      // Naming no channel, the job lists them.
      expect(readJob(builtin, 'list the slack channels').gives & GIVES_CHANNEL).to.equal(0);
      expect(first('list the slack channels')?.id).to.equal('slack.conversations.list');
    });

    it('reads "on" after a writing as opening its topic, as "about" does, but not before the asker\'s thing or a provider', () => {
      expect(readJob(builtin, 'look up news stories on the world cup').terms.find((term) => term.word === 'world')?.topic).to.equal(true);
      expect(first('look up news stories on the world cup')?.id).to.equal('newsapi.articles.search');
      expect(readJob(builtin, 'top posts on hacker news').terms.some((term) => term.topic)).to.equal(false);
      expect(rank(builtin, 'update my contact info on my Google account', 5).candidates).to.deep.equal([]);
    });

    it('reads a word with a capital inside it ("eBay", "iPhone") as a name', () => {
      expect(jobWords('sell it on eBay').at(-1)?.nameLike).to.equal(true);
      expect(rank(builtin, 'list my old bike for sale on eBay', 5).candidates).to.deep.equal([]);
    });

    it('reads a date as locales write it (03/04/2025, 31.12.2023) as a date', () => {
      for (const date of ['03/04/2025', '31.12.2023', '31-12-2023', '2023/12/31']) {
        expect(jobWords(`the rate on ${date}`).at(-1)).to.include({ stem: 'date', given: 'date' });
      }
      expect(first('EUR to CHF rate on 31.12.2023 for the books')?.id).to.equal('frankfurter.currency.historical');
      expect(first('the GBP/USD rate as of 03/04/2025')?.id).to.equal('frankfurter.currency.historical');
    });

    it('reads an ISBN as the word isbn and base64 data as base64, a verb after "what" as a thing, and fits a quoted code to a task requiring one', () => {
      expect(jobWords('what book is 978-1-4919-2912-4').map((word) => word.stem)).to.deep.equal(['what', stem('book'), 'is', 'isbn']);
      // Ten digits are an ISBN only with a valid check digit: a timestamp is not one.
      expect(jobWords('0-306-40615-2 1712345678').map((word) => word.stem)).to.deep.equal(['isbn', '1712345678']);
      expect(first('what book is 978-1-4919-2912-4')?.id).to.equal('openlibrary.books.by_isbn');
      expect(first('what does ZGVwbG95LWtleQ== say')?.id).to.equal('builtin.base64.decode');
      expect(readJob(builtin, "which country is 'KE'? saw it on a shipping label").gives & GIVES_CODE).to.equal(GIVES_CODE);
      expect(first("which country is 'KE'? saw it on a shipping label")?.id).to.equal('restcountries.country.by_code');
      // Not only in a question: "what book" names a book wherever it stands.
      expect(first('isbn 9780262033848 what book is this')?.id).to.equal('openlibrary.books.by_isbn');
    });

    it('weighs "what is" and "who was" as the manner of asking, less than a word naming a thing', () => {
      expect(readJob(builtin, 'what is dark matter').terms[0]).to.include({ word: 'what is', manner: true });
      expect(first('what is dark matter')?.id).to.equal('wikipedia.page.summary');
      expect(first('what is 9am Tokyo time in London')?.id).to.equal('builtin.time.convert');
      expect(first('who is the author Toni Morrison')?.id).to.equal('openlibrary.authors.search');
      // Function words meaning a thing ("can you" = supported) are no manner of asking.
      expect(readJob(builtin, 'what currencies can you convert').terms.find((term) => term.word === 'can you')?.manner).to.equal(undefined);
    });

    it('ends a job at a clause of the asker\'s own deed ("so I can ...", "before I order it") and reads an opening past form as telling what happened', () => {
      expect(first('I need our public IP so I can add it to the firewall allowlist')?.id).to.equal('ipify.ip.public');
      const spotted = readJob(builtin, 'Spotted the ISBN 9780262033848 on a flyer, can you tell me its title before I order it');
      expect(spotted.terms[0]).to.include({ word: 'spotted', role: 'object' });
      expect(spotted.terms.map((term) => term.word)).not.to.include('order');
      expect(readJob(builtin, 'got a string aGVsbG8gd29ybGQ= in a log, can you decode it').terms[0]).to.include({ word: 'got', role: 'object' });
      // An opening verb no task knows is still the job's action.
      expect(rank(builtin, 'shred the old tax papers before I move', 5).candidates).to.deep.equal([]);
    });

    it('reads the topic of a thing as words to look for, never as verbs, and a typing slip there as no other word', () => {
      expect(readJob(builtin, 'news about the trade export restrictions').terms.filter((term) => term.topic).map((term) => term.role)).to.deep.equal(['object', 'object', 'object']);
      expect(first('news about the trade export restrictions')?.id).to.equal('newsapi.articles.search');
      // "black" is one letter from "back" (of "money back"): in a topic it stays the word written.
      expect(readJob(builtin, 'tell me about black holes').terms.find((term) => term.word === 'black')?.alternatives).to.deep.equal([]);
    });

    it('converts into a form a task\'s keywords name ("to base64"), and reads "every day" as a series', () => {
      expect(readJob(builtin, 'convert the string hi there to base64').terms.find((term) => term.word === 'to base64')?.target).to.equal(true);
      expect(first('convert the string hi there to base64')?.id).to.equal('builtin.base64.encode');
      expect(first('turn aGk= from base64 into text')?.id).to.equal('builtin.base64.decode');
      // A task only named by the form ("Define a word") gives it in no other form.
      expect(rank(builtin, 'convert this pdf to word', 5).candidates).to.deep.equal([]);
      expect(first('show the EUR/PLN rate every day from 2024-01-01 to 2024-02-01')?.id).to.equal('frankfurter.currency.timeseries');
      expect(first('how did the yen move against the dollar, day by day, in 2021')?.id).to.equal('frankfurter.currency.timeseries');
    });

    it('reads the asker\'s own thing of a kind no task knows, and a price of a thing no task knows, as elsewhere', () => {
      expect(readJob(builtin, 'file my tax return').elsewhere).to.equal(true);
      expect(rank(builtin, "what's my resting heart rate", 5).candidates).to.deep.equal([]);
      // Where the job looks is not what it is about.
      expect(rank(builtin, 'I need a new GUID for my config file', 5).candidates.map((ranked) => ranked.task.id)).to.include('builtin.uuid.generate');
      expect(rank(builtin, 'silver price per ounce', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'price of bitcoin in dollars', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'convert 0.5 ETH to euros', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'btc to usd rate right now', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'flight status of LH 400', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'train times from Leeds to York', 5).candidates).to.deep.equal([]);
      // A describing word, a word some task knows and the topic of a writing are not such things.
      expect(first('the going rate for euros')?.id).to.equal('frankfurter.currency.rates');
      expect(first("what's the capture rate of pikachu")?.id).to.equal('pokeapi.pokemon.species');
      expect(first('news on the ECB rate decision')?.id).to.equal('newsapi.articles.search');
    });

    it('finds a typing slip inside a word, not at its first letter ("train" is no slip of "rain")', () => {
      expect(first('wether in paris')?.id).to.match(/weather\.current$/);
      expect(rank(builtin, 'train times to Leeds tomorrow', 5).candidates.map((ranked) => ranked.task.id).filter((id) => id.includes('weather'))).to.deep.equal([]);
      expect(first('list pdfs in my gdrive')?.id).to.equal('google.drive.files.list');
      // Two neighbouring letters swapped are a slip too, and a slip of a known word is no unknown thing priced.
      expect(first('lastest exchnage rates for the yen')?.id).to.equal('frankfurter.currency.rates');
    });

    it('reads a question after sentences that set the scene, and what the asker is doing ("I\'m writing ...") as scene too', () => {
      expect(readJob(builtin, 'I run a bakery in Cork. Which days are public holidays in Ireland in 2027?').question).to.equal(true);
      expect(first('I run a bakery in Cork. Which days are public holidays in Ireland in 2027?')?.id).to.equal('nager-date.holidays.year');
      expect(first('off to Spain next month — which holidays are coming up there?')?.id).to.equal('nager-date.holidays.next');
      expect(readJob(builtin, "I'm writing an essay on Peru and need its capital and population").terms.map((term) => term.word)).not.to.include('writing');
      expect(first("I'm writing an essay on Peru and need its capital and population")?.id).to.equal('restcountries.country.by_name');
    });

    it('reads a currency\'s sign as its name, a few words of other languages, and a bio as a summary', () => {
      expect(jobWords('£40 in €').map((word) => word.word)).to.deep.equal(['40', 'in', 'pound', 'euro']);
      expect(first('how much is ¥5000 in €')?.id).to.equal('frankfurter.currency.convert');
      expect(first('feriados en México 2026')?.id).to.equal('nager-date.holidays.year');
      expect(first('wetter morgen in Berlin')?.id).to.match(/weather\.current$/);
      expect(first('short bio of Alan Turing')?.id).to.equal('wikipedia.page.summary');
    });

    it('reads a kind of thing no task knows after a sending or creating verb as nothing a task makes ("send a postcard")', () => {
      expect(readJob(builtin, 'send a postcard to grandma').elsewhere).to.equal(true);
      expect(rank(builtin, 'send a postcard to grandma', 5).candidates).to.deep.equal([]);
      // The self-hoster's file sends SMS: there an SMS is a thing a task knows.
      expect(first('send an SMS to +15551234567 saying hi')?.id).to.equal('textly.sms.send');
      expect(first('add a dentist appointment to my calendar tue 9am')?.id).to.equal('google.calendar.events.create');
      // Without an article the words are what is said.
      expect(first('post deploy done in #eng')?.id).to.equal('slack.chat.post');
      // The phrase's last word names the thing; a noun implying the verb sends as the verb does.
      expect(first('use sendgrid to mail a password reset notice to jo@site.org')?.id).to.equal('sendgrid.email.send');
      expect(rank(builtin, 'mail this package to my sister in ohio', 5).candidates).to.deep.equal([]);
      expect(first('email this report to bob@example.com')?.id).to.equal('google.gmail.send');
      expect(first('drop a line to dave@pals.org from my gmail saying thanks')?.id).to.equal('google.gmail.send');
      // A payment service opening the job is its verb; wiring money is a deed no task does.
      expect(rank(builtin, 'venmo jake 20 bucks', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'Venmo $25 to Jake for dinner', 5).candidates).to.deep.equal([]);
      expect(first("my kid's school list says ISBN 978-0-7475-3269-9, who's the publisher?")?.id).to.equal('openlibrary.books.by_isbn');
      expect(rank(builtin, 'wire 500 usd to my brother', 5).candidates).to.deep.equal([]);
    });

    it('reads chat spellings, formal and common words of asking, and a verb\'s -ing form before a known thing as describing it', () => {
      expect(first('wats the weather like in leeds rn')?.id).to.match(/weather\.current$/);
      expect(first('Kindly provide the coordinates of Zermatt')?.id).to.match(/geocode\.search$/);
      expect(readJob(builtin, 'gimme the big news in the UK').sought?.word).to.equal('news');
      expect(first('gimme the big news in the UK')?.id).to.equal('newsapi.headlines.top');
      expect(readJob(builtin, 'need its region and calling code').terms.find((term) => term.word === 'calling')?.role).to.equal('object');
      expect(first('deliver one email via SendGrid to bob@example.com')?.id).to.equal('sendgrid.email.send');
      expect(first('give me everybody in our Slack workspace')?.id).to.equal('slack.users.list');
    });

    it('reads a noun opening a later clause as a verb only before its object, and a sentence\'s first word as opening a command', () => {
      expect(readJob(builtin, "tool to retrieve the signed-in Google user's name, email address and avatar").terms.map((term) => term.role)).not.to.include('action');
      expect(first("tool to retrieve the signed-in Google user's name, email address and avatar")?.id).to.equal('google.userinfo.get');
      expect(first('new customer in Stripe for Ana Lima please, email ana@example.com, phone +55 11 5555 0000')?.id).to.equal('stripe.customers.create');
      expect(first("we're mid-incident, pls drop a note in #status on slack saying db is slow")?.id).to.equal('slack.chat.post');
      expect(first('Our mail goes through Resend. Send a welcome email to new@example.com')?.id).to.equal('resend.email.send');
      expect(first('We signed a new client, Acme Ltd. Set them up as a customer in Stripe')?.id).to.equal('stripe.customers.create');
      // "I send you" says what the stack trace is, not what to do.
      expect(first('open an issue in acme/api with the stack trace I send you')?.id).to.equal('github.issues.create');
    });

    it('reads capitals no task is named by as a code, a name before a team or office as a place, and "asks which moves" as a question', () => {
      expect(readJob(builtin, 'what country is DEU').gives & GIVES_CODE).to.equal(GIVES_CODE);
      expect(first('what country is NZ short for')?.id).to.equal('restcountries.country.by_code');
      expect(readJob(builtin, "call at 17:00 Berlin time, what's that for our Mumbai team?").elsewhere).to.equal(false);
      expect(first("call at 17:00 Berlin time, what's that for our Mumbai team?")?.id).to.equal('builtin.time.convert');
      expect(rank(builtin, 'message the design team on Microsoft Teams', 5).candidates).to.deep.equal([]);
      // A well-known service's own thing, after "the" or a describing word too; converting only names.
      expect(rank(builtin, 'refund the paypal payment from jenny', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'reply to the comments on my latest instagram post', 5).candidates).to.deep.equal([]);
      expect(first('refund the stripe payment ch_123')?.id).to.equal('stripe.refunds.create');
      expect(rank(builtin, 'convert this PNG to a JPG', 5).candidates).to.deep.equal([]);
      expect(first('convert 5pm PST to CET')?.id).to.equal('builtin.time.convert');
      // A standing watch is kept by no task; a question when something is, answered once, is.
      expect(rank(builtin, 'alert me when the GBP/USD rate hits 1.35', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'email me whenever a news article mentions my company', 5).candidates).to.deep.equal([]);
      expect(first('tell me when the next public holiday in France is')?.id).to.equal('nager-date.holidays.next');
      expect(first('my brother asks which moves Pikachu can learn')?.id).to.equal('pokeapi.pokemon.get');
      expect(first('recent chatter in the #general slack channel')?.id).to.equal('slack.conversations.history');
      expect(first('the passport says NZL, which country is that')?.id).to.equal('restcountries.country.by_code');
      expect(first("country info for alpha-2 code 'IS'")?.id).to.equal('restcountries.country.by_code');
      expect(rank(builtin, 'is the post office on Main St open right now', 5).candidates).to.deep.equal([]);
    });

    it('reads booking a kind of appointment no task knows, with no calendar named, as booking with someone else', () => {
      expect(readJob(builtin, 'book a vet appointment for my dog').elsewhere).to.equal(true);
      expect(rank(builtin, 'book a vet appointment for my dog', 5).candidates).to.deep.equal([]);
      expect(first('book a dentist appointment in my google calendar for tuesday 3pm')?.id).to.equal('google.calendar.events.create');
      expect(first('book a 30 minute call with Priya on Friday')?.id).to.equal('google.calendar.events.create');
      expect(rank(builtin, 'book a roofer for an inspection', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'book an appointment with my dentist next week', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'predict the EUR to USD rate for next month', 5).candidates).to.deep.equal([]);
      // A quote for work is no exchange rate; FX quotes still are.
      expect(rank(builtin, 'get a quote to fix my roof', 5).candidates).to.deep.equal([]);
      expect(first('latest fx quotes with base CHF')?.id).to.equal('frankfurter.currency.rates');
    });

    it('reads a question whether a place is open at some time, and a file the asker holds, as nothing a task knows', () => {
      expect(rank(builtin, 'is the pharmacy open on sunday', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'is the post office on king st open now?', 5).candidates).to.deep.equal([]);
      expect(first('which PRs are open on kubernetes/kubernetes')?.id).to.equal('github.pulls.list');
      expect(rank(builtin, 'give me a summary of this pdf', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'email this pdf to bob@example.com', 5).candidates).to.deep.equal([]);
      // Text in a file is what a text task works on.
      expect(first('md5 of this file contents')?.id).to.equal('builtin.text.hash');
      // The asker's whereabouts; "place" opening a command before a determiner is its verb.
      expect(rank(builtin, 'where am I right now?', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'cheapest petrol near my current location', 5).candidates).to.deep.equal([]);
      expect(first('coordinates of the place called Zermatt')?.id).to.match(/geocode\.search$/);
      expect(rank(builtin, 'place a bet on the Lakers tonight', 5).candidates).to.deep.equal([]);
    });

    it('reads a verb\'s -s form after "that" as the job\'s verb only after a tool, and more words of ranking, Hacker News and counting', () => {
      expect(readJob(builtin, 'list every country that pays in euros').terms.map((term) => term.role)).not.to.include('action');
      expect(first('list every country that pays in euros')?.id).to.equal('restcountries.country.by_currency');
      expect(first('grab the 10 highest ranked HN stories')?.id).to.equal('hacker-news.stories.top');
      expect(first('most popular stories on ycombinator')?.id).to.equal('hacker-news.stories.top');
      expect(first('star count and default branch of torvalds/linux')?.id).to.equal('github.repo.get');
      expect(first('which currencies can u convert between?')?.id).to.equal('frankfurter.currency.list');
      expect(first('mint a unique identifier for the new row')?.id).to.equal('builtin.uuid.generate');
      expect(first('unpack this base64 payload: aGVsbG8=')?.id).to.equal('builtin.base64.decode');
      expect(first("remind me in my calendar about dad's birthday on 2026-03-02")?.id).to.equal('google.calendar.events.create');
    });

    it('reads a job in capitals as shouted, shell shorthand as deeds, and a verb right after a provider opening the job as its deed', () => {
      expect(first('WHAT IS THE WEATHER IN PARIS RIGHT NOW')?.id).to.match(/weather\.current$/);
      expect(rank(builtin, 'GH: del repo old-scripts', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'gh issue edit 42 --repo acme/cli --add-assignee alice', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'github merge pull request 88 in octo-org/widgets', 5).candidates).to.deep.equal([]);
      expect(first('stripe refund ch_123 please')?.id).to.equal('stripe.refunds.create');
    });

    it('reads who wants the job, what the asker is making and sentences setting the scene as no part of the job', () => {
      expect(first('She wants the full text of Hacker News comment 39122155')?.id).to.equal('hacker-news.item.get');
      expect(first("I'm making a study planner. Which Google calendars do I have?")?.id).to.equal('google.calendar.calendars.list');
      expect(first('Finished our sprint planning. Please show the open issues in acme/api')?.id).to.equal('github.issues.list');
      expect(first("My grandson says there's a book with the number 978-0-06-112008-4 on the back. Which book is that?")?.id).to.equal('openlibrary.books.by_isbn');
      // A clause of the asker's own deed before a comma leads into the request.
      expect(first('Before I plan my commute, can you give me the forecast for Leeds?')?.id).to.match(/weather\.forecast$/);
      expect(first('give me the rundown on Kenya as a country: currency, languages')?.id).to.equal('restcountries.country.by_name');
      expect(first('quick rundown of the Treaty of Westphalia')?.id).to.equal('wikipedia.page.summary');
      expect(first("gh: anything pinging me that I haven't read yet?")?.id).to.equal('github.notifications.list');
      // After I or was, a word no task knows is the speaker's story, not the command's verb.
      expect(first("I'm seeding a test database and need ten unique identifiers")?.id).to.equal('builtin.uuid.generate');
      expect(first('I was out sick this morning; read the last 50 messages in the Slack channel #project-phoenix')?.id).to.equal('slack.conversations.history');
      expect(first('hows the weather rn in lisbon')?.id).to.match(/weather\.current$/);
      // A plural opening the job names things; over a past span, things to see.
      expect(first('emails from my bank last month in gmail')?.id).to.equal('google.gmail.messages.list');
      expect(first('email bob@example.com the report')?.id).to.equal('google.gmail.send');
    });

    it('reads a past participle after someone wanting a thing as the deed wanted done, not when it dates or names the thing', () => {
      expect(rank(builtin, 'my manager wants our Stripe payout schedule changed to weekly', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'please have @mark removed from our Slack workspace', 5).candidates).to.deep.equal([]);
      expect(readJob(builtin, 'I want the emails sent yesterday from my gmail').terms.map((term) => term.role)).not.to.include('action');
      expect(first("need facts about the nation called 'Uruguay'")?.id).to.equal('restcountries.country.by_name');
      // A participle ending its clause after is/was says the outcome wanted; one going on into a phrase describes.
      expect(rank(builtin, 'Input: owner=acme, repo=api, issue_number=12. Output: confirmation that the issue is now closed.', 5).candidates).to.deep.equal([]);
      expect(first('which issues are assigned to alice in acme/api')?.id).to.equal('github.issues.list');
      // The time something happens is no clock's time.
      expect(rank(builtin, 'what time does the IKEA in Wembley close today?', 5).candidates).to.deep.equal([]);
      expect(first('what time is it in Tokyo')?.id).to.equal('builtin.time.now');
      expect(rank(builtin, 'crack md5 hash 5f4dcc3b5aa765d61d8327deb882cf99', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'tweet the release notes from our company account', 5).candidates).to.deep.equal([]);
      // "on time" is punctual, not a clock's time; a message on a well-known service goes there.
      expect(rank(builtin, 'is my flight BA283 on time today', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'send a message on WhatsApp to mom saying I landed', 5).candidates).to.deep.equal([]);
      expect(first('send a message to #general on slack')?.id).to.equal('slack.chat.post');
    });

    it('reads chat interjections as no words, and a verb after an emoji as opening the sentence', () => {
      expect(rank(builtin, 'lol set an alarm for 6am tmrw', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, '🚗 Rent a car in Faro from 2 to 9 August', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'yo can u hide that story from my hacker news feed', 5).candidates).to.deep.equal([]);
      expect(first('lol whats the weather in paris')?.id).to.match(/weather\.current$/);
      expect(first("🎉 Post 'we shipped!' in #general on slack")?.id).to.equal('slack.chat.post');
    });

    it('reads greetings, words of address and what is told after "know that" as no part of the job', () => {
      expect(first('Hello! Would you kindly let everyone in our #general Slack channel know that the office will close early on Friday?')?.id).to.equal('slack.chat.post');
      expect(first("Good evening. Could you explain what the word 'peripatetic' means?")?.id).to.equal('dictionaryapi.word.define');
      expect(first('Dear assistant, a colleague asked whether email 4ef9a417-02e9-4d39-ad75-9611e0fcc33c sent through Resend bounced. Could you look up its delivery status?')?.id).to.equal('resend.email.get');
      // Someone's thing in a job naming a catalog provider is a record there; elsewhere it is not.
      expect(first('Would you put my doctor\'s appointment into my Google calendar on Tuesday at 10:15?')?.id).to.equal('google.calendar.events.create');
      expect(rank(builtin, "what's my laptop's time zone", 5).candidates).to.deep.equal([]);
    });

    it('reads what is going on and what the asker does with the answer as no part of the job', () => {
      expect(first('need the rain outlook for Rotterdam this week, trucks are loading outdoors on Thursday')?.id).to.match(/weather\.forecast$/);
      expect(first('check our outbound IP so ops can add it to the firewall allowlist')?.id).to.equal('ipify.ip.public');
      expect(first('book details for isbn 978-1-4028-9462-6 please, adding it to our inventory')?.id).to.equal('openlibrary.books.by_isbn');
      // A month after "through" is a date, not a service.
      expect(first('chart data: GBP vs JPY for every day of Q4 2023 (Oct through Dec)')?.id).to.equal('frankfurter.currency.timeseries');
      expect(first('add a thumbsup to the slack message in #general at ts 1700000000.123456')?.id).to.equal('slack.reactions.add');
      // A word no task knows before a known one describes the thing made; a possessive says whose.
      expect(readJob(builtin, 'create a brand new GitHub repository called dotfiles').terms[0].thing?.word).to.equal('repository');
      expect(rank(builtin, 'create a brand new GitHub repository called dotfiles', 5).candidates).to.deep.equal([]);
      expect(first("add mum's birthday to my google calendar on 12 may")?.id).to.equal('google.calendar.events.create');
    });

    it('reads what follows "titled", "called" or "named" after the thing as its name, and a hyphenated word before a known thing as describing it', () => {
      expect(first('open a new issue in acme/webapp titled Login button broken on Safari')?.id).to.equal('github.issues.create');
      expect(first('look up novelists called Tolstoy')?.id).to.equal('openlibrary.authors.search');
      expect(first('could you find me some sci-fi books about generation ships')?.id).to.equal('openlibrary.books.search');
      expect(first('where is CHF the official money')?.id).to.equal('restcountries.country.by_currency');
      expect(first('fresh submissions on hacker news')?.id).to.equal('hacker-news.stories.new');
      // "open" after are/still says a state; "own" says whose; "Open Library" is a provider's name.
      expect(first('what issues are still open in acme/api')?.id).to.equal('github.issues.list');
      expect(first('what repositories do I own on GitHub, sorted by last update')?.id).to.equal('github.repos.list');
      expect(first('find author ursula le guin in open library')?.id).to.equal('openlibrary.authors.search');
    });

    it('reads "check in" before a name as where, a verb before "which" as finding out, and "American" as a people\'s word', () => {
      expect(first('check in Resend whether email 49a3999c-0ce1-4ea6-ab68-afcd6dc2e794 bounced')?.id).to.equal('resend.email.get');
      expect(first('verify which GitHub account this token belongs to')?.id).to.equal('github.user.get');
      expect(first('my American colleague says 20 miles, what is that in km')?.id).to.equal('builtin.units.convert');
      expect(first('a short intro on the Hanseatic League')?.id).to.equal('wikipedia.page.summary');
    });

    it('reads the deeds of sentences that only set the scene as the asker\'s story, and the request after them as opening a command', () => {
      expect(first('Cleaning out the garage all weekend with my brother. Give me the details on Lucario: height, weight and abilities.')?.id).to.equal('pokeapi.pokemon.get');
      expect(first('During the demo the export button crashed. Open a new ticket in acme/dashboard saying that CSV export fails.')?.id).to.equal('github.issues.create');
      expect(first("Site visit in Rotterdam this afternoon. What's it like outside there right now?")?.id).to.match(/weather\.current$/);
      // A scene's words say less than the request's: "story" does not make this a post.
      const scene = readJob(builtin, 'Locked out of the office all morning, long story. Which Slack channels exist in our workspace?').terms;
      expect(scene.find((term) => term.word === 'story')?.scene).to.equal(true);
      expect(scene.find((term) => term.word === 'channels')?.scene).to.equal(undefined);
      // With no sentence that asks, or one asking about the scene only, every sentence is the job's.
      expect(rank(builtin, "I can't find my reading glasses. Could you tell me where I left them?", 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'Pull request #212 in our repo has two approvals. Go ahead and merge it into main.', 5).candidates).to.deep.equal([]);
      // A comma before "so" or a polite ask parts a clause setting the scene from the request.
      expect(first("I'm on review duty this afternoon, so show me the open pull requests waiting in the acme/frontend repository.")?.id).to.equal('github.pulls.list');
      expect(first("I'm getting into the Cold War period for a history class, can you find some books about the Cuban Missile Crisis?")?.id).to.equal('openlibrary.books.search');
      expect(rank(builtin, 'I accidentally sent the draft proposal before it was finished, so pull back that email I sent to Mark.', 5).candidates).to.deep.equal([]);
      // A name in a clause setting the scene is no service the request is about.
      expect(first("We're driving through Salt Lake City in an hour, can you tell me the current conditions there?")?.id).to.match(/weather\.current$/);
      // Nor is the asker's own thing there ("my thesis") one kept elsewhere.
      expect(first("I'm citing a textbook in my thesis, so who published ISBN 978-0-262-03384-8 and in what year did it come out?")?.id).to.equal('openlibrary.books.by_isbn');
      // A sentence ending in a question mark asks, whatever its form: what follows it sets the scene.
      expect(first('350 fahrenheit in celsius? baking')?.id).to.equal('builtin.units.convert');
    });

    it('reads opening one of a kind as making it, taking a thing away as removing it, and changing a thing no task knows as elsewhere', () => {
      expect(rank(builtin, 'open a savings account at my bank', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'open a pull request from my feature branch into main', 5).candidates).to.deep.equal([]);
      expect(first('open a new issue in acme/api about the broken login')?.id).to.equal('github.issues.create');
      expect(first('open the wikipedia page on the Hanseatic League')?.id).to.equal('wikipedia.page.summary');
      expect(rank(builtin, 'please take away the thumbs up reaction I left on the Slack message', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'exchange my old foreign coins at the bank', 5).candidates).to.deep.equal([]);
      expect(first('exchange 500 SEK to NOK')?.id).to.equal('frankfurter.currency.convert');
    });

    it('reads a date the job gives as an argument, not what it is about, and a question in the past about a date as one only a task taking a date answers', () => {
      expect(readJob(builtin, 'cheapest flight Berlin to Lisbon on 12 June').terms.find((term) => term.word === 'june')).to.include({ dated: true });
      expect(rank(builtin, 'cheapest flight Berlin to Lisbon on 12 June, one way', 5).candidates).to.deep.equal([]);
      expect(readJob(builtin, 'What was the weather in Chicago on 4 July 1976?').asksPast).to.equal(true);
      expect(rank(builtin, 'What was the weather in Chicago on 4 July 1976?', 5).candidates).to.deep.equal([]);
      expect(first('what was the pound worth in dollars on 1 Jan 2010?')?.id).to.equal('frankfurter.currency.historical');
      expect(first('Was 1 November 2023 a public holiday in Poland?')?.id).to.equal('nager-date.holidays.year');
      // With nothing else named, the date says what the job is about.
      expect(first('what happened on 20 July 1969')?.id).to.equal('wikipedia.onthisday');
    });

    it('reads a known word that is no verb, opening a command before a determiner, as its verb ("flag this comment")', () => {
      expect(readJob(builtin, 'flag this hacker news comment as spam').terms[0]).to.include({ word: 'flag', role: 'action' });
      expect(rank(builtin, 'flag this hacker news comment as spam', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'freeze my lost debit card', 5).candidates).to.deep.equal([]);
      // A word naming a task or a provider stays a name: it asks for that task's answer.
      expect(first('wiki the eiffel tower')?.id).to.equal('wikipedia.page.summary');
      expect(first("geocode the place name 'Springfield' with open-meteo")?.id).to.equal('open-meteo-geocoding.geocode.search');
      expect(first('poll the freshest stories on Hacker News')?.id).to.equal('hacker-news.stories.new');
    });

    it('reads a path into a document with an index ("data.items[0].name") as a JSONPath, not as words', () => {
      expect(jobWords('grab data.items[0].name').map((word) => word.word)).to.deep.equal(['grab', 'data', 'items', '0', 'name', 'jsonpath']);
      expect(jobWords('grab data.items[0].name').filter((word) => !word.literal).map((word) => word.word)).to.deep.equal(['grab', 'jsonpath']);
      expect(first('from this API response, grab data.items[0].name')?.id).to.equal('builtin.json.extract');
    });

    it('reads padded base64 of any length as base64 data, and b64, unscramble and "the orange site" as people write them', () => {
      expect(jobWords('SGk=').some((word) => word.encoded)).to.equal(true);
      expect(jobWords('x=').some((word) => word.encoded)).to.equal(false);
      expect(first('what does this b64 say SGk=')?.id).to.equal('builtin.base64.decode');
      expect(first('unscramble this b64 blob: SGk=')?.id).to.equal('builtin.base64.decode');
      expect(first("what's hot on the orange site right now")?.id).to.equal('hacker-news.stories.top');
    });

    it('reads requesting as a deed and a drive from one place to another as a journey, not Google Drive', () => {
      expect(rank(builtin, 'request vacation days off in Workday', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'how long is the drive from Lyon to Milan', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'driving directions from Leeds to York', 5).candidates).to.deep.equal([]);
      expect(first('find the budget spreadsheet in my drive')?.id).to.equal('google.drive.files.list');
      expect(first('list the files in my google drive')?.id).to.equal('google.drive.files.list');
    });

    it('reads "back" as no word of its own, what is explained as a topic, and "text me if" as a standing watch', () => {
      expect(rank(builtin, 'reverse this md5 hash back to the password', 5).candidates).to.deep.equal([]);
      expect(first('give the customer their money back for payment pi_3MtwBwLkdIwHu7ix28a3tqPa')?.id).to.equal('stripe.refunds.create');
      expect(readJob(builtin, 'explain black holes in simple terms').sought).to.equal(undefined);
      expect(first('explain black holes briefly like an encyclopedia would')?.id).to.equal('wikipedia.page.summary');
      expect(first('explain the intimidate ability in pokemon')?.id).to.equal('pokeapi.ability.get');
      expect(rank(builtin, 'text me if a storm warning is issued tonight', 5).candidates).to.deep.equal([]);
    });

    it('lets a synonym of the job\'s verb meet only the deeds a task names, not the other words of its title ("charge" is no refund)', () => {
      expect(rank(builtin, "charge the customer's saved card 49.99 in stripe", 5).candidates).to.deep.equal([]);
      expect(first('refund the payment pi_3MtwBwLkdIwHu7ix28a3tqPa on stripe')?.id).to.equal('stripe.refunds.create');
      expect(first('sign up maria@example.org for our sendgrid mailing list')?.id).to.equal('sendgrid.contacts.upsert');
      expect(first('update the contact jo@example.com in sendgrid')?.id).to.equal('sendgrid.contacts.upsert');
    });

    it('reads what a price, a rate or a balance will be as a prediction, which no task makes', () => {
      expect(rank(builtin, 'what will the euro to dollar rate be next month?', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'What will my Stripe balance be at the end of the quarter?', 5).candidates).to.deep.equal([]);
      expect(first("what's the euro to dollar rate today")?.id).to.equal('frankfurter.currency.rates');
      expect(first('will it rain in Porto next week')?.id).to.match(/weather\.forecast$/);
    });

    it('lets creating meet generating ("create a uuid"), and reads "complete" before a thing as describing it', () => {
      expect(first('create a uuid')?.id).to.equal('builtin.uuid.generate');
      expect(first('Please show me the complete text of that particular email in Gmail.')?.id).to.equal('google.gmail.messages.get');
    });

    it('ranks after its siblings a task taking as input what the job asks of a named thing ("the capital of Chile")', () => {
      expect(readJob(builtin, 'what is the capital of Chile').asksOf).to.deep.equal(['capit']);
      expect(first('what is the capital of Chile')?.id).to.equal('restcountries.country.by_name');
      expect(first('whose capital is Canberra')?.id).to.equal('restcountries.country.by_capital');
      expect(first('which country has Canberra as its capital')?.id).to.equal('restcountries.country.by_capital');
    });

    it('reads a capitol and a seat of government as a capital, and what a service can handle as what it supports', () => {
      expect(first('which nation has Ouagadougou as its capitol')?.id).to.equal('restcountries.country.by_capital');
      expect(first('Which nation has Canberra as its seat of government?')?.id).to.equal('restcountries.country.by_capital');
      expect(first('Which currency codes can the exchange rate service handle?')?.id).to.equal('frankfurter.currency.list');
    });

    it('fits two dates to a task taking a range, not one taking a date, and reads "New York" as a name', () => {
      expect(first('exchange rate of PLN vs EUR between 2021-05-01 and 2021-06-01')?.id).to.equal('frankfurter.currency.timeseries');
      expect(first('exchange rate of PLN vs EUR on 2021-05-01')?.id).to.equal('frankfurter.currency.historical');
      expect(readJob(builtin, '3pm London time in New York').terms.map((term) => term.word)).to.deep.equal(['time']);
      expect(first('3pm London time in New York')?.id).to.equal('builtin.time.convert');
    });

    it('reads the papers and journalists as the news', () => {
      expect(first('hey, what are the main stories in the UK papers this morning?')?.id).to.equal('newsapi.headlines.top');
      expect(first('what have journalists written about ChatGPT lately')?.id).to.equal('newsapi.articles.search');
    });

    it('finds the signed-in Google profile for the asker\'s own account email', () => {
      expect(first("what's my google account email")?.id).to.equal('google.userinfo.get');
      expect(first('what email is my Google account under')?.id).to.equal('google.userinfo.get');
      expect(first('list my gmail messages from last week')?.id).to.equal('google.gmail.messages.list');
    });

    it('reads a file the asker holds past a participle or a format\'s name ("this scanned PDF", "this YAML file")', () => {
      expect(rank(builtin, 'extract text from this scanned PDF', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'parse this YAML file and extract the value of version', 5).candidates).to.deep.equal([]);
      expect(first('Pull user.email out of this JSON document')?.id).to.equal('builtin.json.extract');
    });

    it('reads muggy, a raincoat and snowfall as weather, and what follows "saying" after the thing as what it says', () => {
      expect(first('is it muggy in Houston currently')?.id).to.match(/weather\.current$/);
      expect(first('do I need a raincoat for my trip to Seattle this weekend')?.id).to.match(/weather\.forecast$/);
      expect(first('file a github issue saying the export button crashes')?.id).to.equal('github.issues.create');
    });

    it('lets a known word before a made thing name it ("a customer record"), and reads the asker\'s text and a written topic as no thing kept elsewhere', () => {
      expect(first('create a customer record in stripe for Jane Doe')?.id).to.equal('stripe.customers.create');
      expect(rank(builtin, 'create a Gmail draft to sam@example.com but do not send it', 5).candidates).to.deep.equal([]);
      expect(first('hash my password string with sha256')?.id).to.equal('builtin.text.hash');
      expect(first("send an email to the school about my son's absence")?.id).to.equal('google.gmail.send');
    });

    it('reads what follows "let ... know" as what is told, text to convert as text, and kroner as money', () => {
      expect(first('let #office know the coffee machine is fixed')?.id).to.equal('slack.chat.post');
      expect(first('convert the text foo bar to base64')?.id).to.equal('builtin.base64.encode');
      expect(first('how much is 1,000 Danish kroner worth in dollars right now')?.id).to.equal('frankfurter.currency.convert');
    });

    it('reads a dotted path as a JSONPath when the job gives a document, hottest as top, and a WAN IP as the public IP', () => {
      expect(first('get user.name from {"user":{"name":"Ann"}}')?.id).to.equal('builtin.json.extract');
      expect(jobWords('is example.com up').some((word) => word.word === 'jsonpath')).to.equal(false);
      expect(first('what are the hottest stories on Hacker News')?.id).to.equal('hacker-news.stories.top');
      expect(first("what's my WAN IP")?.id).to.equal('ipify.ip.public');
    });

    it('reads chat shorthand for calendars, meetings, weekdays and holidays ("cal", "mtgs thurs", "hols")', () => {
      expect(first('whats on my cal today')?.id).to.equal('google.calendar.events.list');
      expect(first('mtgs thurs?')?.id).to.equal('google.calendar.events.list');
      expect(first('french hols 2023')?.id).to.equal('nager-date.holidays.year');
    });

    it('reads "wheres" as asking where, and a partial refund as a refund', () => {
      expect(first('wheres my passport scan in drive')?.id).to.equal('google.drive.files.list');
      expect(first('refund ch_55kk partial $10')?.id).to.equal('stripe.refunds.create');
    });

    it('reads the names in what a search on a catalog provider looks for as the query, not another service', () => {
      expect(first('Search GitHub for repositories implementing a JavaScript markdown parser, sorted by stars.')?.id).to.equal('github.repos.search');
      expect(rank(builtin, 'search my Outlook inbox for the contract', 5).candidates).to.deep.equal([]);
    });

    it('reads a verb before a known thing in a list of things as naming one ("base stats and move list")', () => {
      expect(readJob(builtin, 'base stats and move list for Garchomp').terms.find((term) => term.word === 'move')?.role).to.equal('object');
      expect(first('base stats and move list for Garchomp')?.id).to.equal('pokeapi.pokemon.get');
      expect(readJob(builtin, 'list the issues and comment on the first one').terms.find((term) => term.word === 'comment')?.role).to.equal('action');
    });

    it('reads a company\'s stock ("TSLA share price", "market cap") as nothing a task reads, and "take back" as one deed', () => {
      expect(rank(builtin, 'TSLA share price right now', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, "show me Microsoft's market cap", 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'take back the email I accidentally sent to the client', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'constructor prices', 5).candidates).to.be.an('array');
    });

    it('reads a new thing asked for with no deed named as one a task must make ("make a new private repo")', () => {
      expect(readJob(builtin, 'make a new private repo called infra-scripts').terms.find((term) => term.word === 'repo')?.made).to.equal(true);
      expect(rank(builtin, 'make a new private repo called infra-scripts', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'get me a new ip', 5).candidates).to.deep.equal([]);
      expect(first('I need a new GUID for my config file, please')?.id).to.equal('builtin.uuid.generate');
      expect(first('make a new stripe customer for Acme Ltd')?.id).to.equal('stripe.customers.create');
      expect(first('show the newest hacker news stories')?.id).to.equal('hacker-news.stories.new');
    });

    it('reads news sites and providers as news sources, and driving someone as a journey', () => {
      expect(first('which news sites do you have access to')?.id).to.equal('newsapi.sources.list');
      expect(rank(builtin, 'drive my son to football practice in the city', 5).candidates).to.deep.equal([]);
    });

    it('reads rainfall and "looking outside" as weather, and sending back part of a payment as a refund', () => {
      expect(first('expected rainfall in Bergen over the next few days')?.id).to.match(/weather\.forecast$/);
      expect(first("how's it looking outside in Lisbon rn")?.id).to.match(/weather\.current$/);
      expect(first('send back 20 dollars of that stripe payment')?.id).to.equal('stripe.refunds.create');
    });

    it('finds the short Wikipedia summary, a Slack handle and a urlified title by the catalog\'s keywords', () => {
      expect(first('what is the Monty Hall problem, short version')?.id).to.equal('wikipedia.page.summary');
      expect(first("what's Priya's handle in slack")?.id).to.equal('slack.users.list');
      expect(first("urlify 'Top 5 Cafés in Paris'")?.id).to.equal('builtin.text.slugify');
      expect(rank(builtin, 'how many characters are in this sentence', 5).candidates).to.deep.equal([]);
    });

    it('reads what a form-changing verb turns a thing into as the form wanted ("into a url-friendly string")', () => {
      expect(first('convert "Summer Sale: 50% Off!" into a url-friendly string')?.id).to.equal('builtin.text.slugify');
      expect(rank(builtin, 'convert this CSV of orders into JSON', 5).candidates).to.deep.equal([]);
    });

    it('reads "on friday" after a booking as when, not where it is put', () => {
      expect(rank(builtin, 'book a vet appointment for my cat on friday morning', 5).candidates).to.deep.equal([]);
      expect(first('book a vet appointment on friday in my google calendar')?.id).to.equal('google.calendar.events.create');
    });

    it('reads filing the asker\'s own thing no task knows as done elsewhere ("file my taxes"), not sending to someone', () => {
      expect(rank(builtin, 'file my taxes for 2023', 5).candidates).to.deep.equal([]);
      expect(first('file a bug in acme/web: login button does nothing on Safari')?.id).to.equal('github.issues.create');
      expect(first('email my boss from gmail: running 10 min late')?.id).to.equal('google.gmail.send');
    });

    it('reads a text message as an SMS, which only a catalog with an SMS task sends', () => {
      expect(first('send a text message to +44 7700 900123 saying the meeting moved')?.id).to.equal('textly.sms.send');
      expect(first('send an SMS to my team that the standup is cancelled')?.id).to.equal('textly.sms.send');
      const builtinOnly = indexFor(buildCatalog(builtinCatalogFiles(), {}, {}).catalog);
      expect(rank(builtinOnly, 'send a text message to +44 7700 900123 saying the meeting moved', 5).candidates).to.deep.equal([]);
      expect(rank(builtinOnly, 'send an SMS to my team that the standup is cancelled', 5).candidates).to.deep.equal([]);
      expect(rank(builtinOnly, 'email my team that the standup is cancelled', 5).candidates.length).to.be.greaterThan(0);
    });

    it('reads catching one as a deed and locating as finding where a thing is', () => {
      expect(rank(builtin, 'catch a Mewtwo for me in Pokémon Go', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'locate my stolen laptop', 5).candidates).to.deep.equal([]);
      expect(first('Can you locate the presentation I made for the Q2 review somewhere in my Google Drive?')?.id).to.equal('google.drive.files.list');
      expect(first('locate Springfield, Illinois on a map: latitude and longitude')?.id).to.match(/geocode\.search$/);
    });

    it('reads a verb and its particle around a thing as one deed ("turn the volume down"), not "in" or "out" saying where', () => {
      expect(rank(builtin, 'turn the volume down on the living room TV', 5).candidates).to.deep.equal([]);
      expect(first('check the weather in Oslo rn')?.id).to.match(/weather\.current$/);
    });

    it('reads "a couple of", "a bunch of" and "a handful of" as counting, not as deeds', () => {
      expect(first('need a couple of fresh GUIDs for test records')?.id).to.equal('builtin.uuid.generate');
    });

    it('reads giving someone access to a thing, or making it public, as sharing, which no task does', () => {
      expect(rank(builtin, 'give jim@acme.com edit access to my Drive folder', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'make the Q4 report in Drive public', 5).candidates).to.deep.equal([]);
      expect(first('list my public repositories on github')?.id).to.equal('github.repos.list');
    });

    it('reads an id beside a plural of another kind as saying whose things are listed ("charges made to customer cus_1")', () => {
      expect(first('charges made to Stripe customer cus_A1b2')?.id).to.equal('stripe.charges.list');
      expect(first('details on stripe customer cus_ABC123')?.id).to.equal('stripe.customers.get');
    });

    it('reads what a job rules out ("not channels", "don\'t add anything", "no hashing") as no part of it', () => {
      expect(readJob(builtin, 'list slack workspace members, not channels').terms.map((term) => term.word)).to.not.include('channels');
      expect(first('list slack workspace members, not channels')?.id).to.equal('slack.users.list');
      expect(first('newest HN stories, not the top ones')?.id).to.equal('hacker-news.stories.new');
      expect(first("list records in Airtable table 'Orders', don't add anything")?.id).to.equal('airtable.records.list');
      expect(rank(builtin, "save a Gmail draft reply to the landlord but don't send it", 5).candidates).to.deep.equal([]);
    });

    it('keeps an apostrophe between letters inside single quotes ("\'Mom\'s birthday dinner\'")', () => {
      expect(quotes("add 'Mom's birthday dinner' to my calendar")).to.equal(true);
      expect(jobWords("add 'Mom's birthday dinner' to my calendar").map((word) => word.word)).to.deep.equal(['add', 'to', 'my', 'calendar']);
      expect(first("hi, could you please add 'Mom's birthday dinner' to my google calendar on May 4 at 7pm?")?.id).to.equal('google.calendar.events.create');
      // An apostrophe alone is no quote.
      expect(quotes("Tom's and Jane's notes")).to.equal(false);
    });

    it('reads words written on or in a thing as posting or commenting there ("write in #general", "post thanks! on issue 99")', () => {
      expect(first("write in #general on Slack: 'pizza in the kitchen!'")?.id).to.equal('slack.chat.post');
      expect(first('post thanks! on github issue 99 of foo/bar')?.id).to.equal('github.issues.comment');
      expect(first("write 'LGTM, merging tomorrow' under PR 17 of team/infra on GitHub")?.id).to.equal('github.issues.comment');
      // Written to someone, or made, it is no comment.
      expect(first('write an email to my team lead')?.id).to.equal('google.gmail.send');
      expect(rank(builtin, 'write my essay on the french revolution', 5).candidates).to.deep.equal([]);
    });

    it('reads a value only an identifier meets (by a task\'s input pattern) as naming its kind and fitting that task', () => {
      // Neither ordinary words nor numbers meet these patterns; a Slack timestamp's does ("12.50"), so it is none.
      expect(builtin.identifierPatterns.map(({ kind }) => kind.join(' '))).to.have.members(['isbn', 'customer', 'payment intent']);
      expect(first('title of isbn 9780553418026')?.id).to.equal('openlibrary.books.by_isbn');
      expect(first('who published 978-1-4028-9462-6, the till shows no title')?.id).to.equal('openlibrary.books.by_isbn');
      expect(first("what's on record for cus_8pQr2LmZ")?.id).to.equal('stripe.customers.get');
      expect(first('list payments made by customer cus_W3e4 in stripe')?.id).to.equal('stripe.charges.list');
    });

    it('reads the new thing a job asks to make as what a task makes, not where it goes ("a new GitHub repo", "a new Slack channel")', () => {
      expect(rank(builtin, 'make a new private github repo named course-notes', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'make a new slack channel called #offsite-2027', 5).candidates).to.deep.equal([]);
      expect(first('make a new airtable record in Leads: Dana, Acme')?.id).to.equal('airtable.records.create');
      expect(first('I need a fresh unique identifier, v4')?.id).to.equal('builtin.uuid.generate');
    });

    it('reads unpadded base64 without digits as encoded text ("what does dGFrZSBjYXJl say")', () => {
      expect(readJob(builtin, 'what does dGFrZSBjYXJl say').gives & GIVES_ENCODED).to.not.equal(0);
      expect(first('what does dGFrZSBjYXJl say')?.id).to.equal('builtin.base64.decode');
      // Names and words are not.
      expect(readJob(builtin, 'what does PostgreSQL say').gives & GIVES_ENCODED).to.equal(0);
    });

    it('reads a deed\'s participle after a thing as saying which ones ("issues opened this week"), not as the deed', () => {
      expect(readJob(builtin, 'issues opened this week in acme/api').terms.map((term) => term.word)).to.not.include('opened');
      expect(first('issues opened this week in acme/api')?.id).to.equal('github.issues.list');
      expect(first('every stripe customer created this month')?.id).to.equal('stripe.customers.list');
      // What happened to one thing, or what people did, stays.
      expect(readJob(builtin, 'check if the reset email bounced').terms.map((term) => term.word)).to.include('bounced');
      expect(readJob(builtin, 'how many people opened last week\'s newsletter').terms.map((term) => term.word)).to.include('opened');
    });

    it('finds a long word again with one vowel changed ("calender"), and knows a slip of a known word ("add a coment")', () => {
      expect(first("what's on my calender monday")?.id).to.equal('google.calendar.events.list');
      expect(first('add a coment to issue 12 in acme/api: fixed in 2.1')?.id).to.equal('github.issues.comment');
    });

    it('reads a synonym of a thing sent before a plural as naming where those things are ("gmail messages from hr")', () => {
      expect(first('gmail messages with attachments from hr@acme.com')?.id).to.equal('google.gmail.messages.list');
    });

    it('ends the phrase of a thing to make at a word saying when ("add dentist appointment Thursday 3pm")', () => {
      expect(first('add vet appointment Tuesday 4pm to my google calendar')?.id).to.equal('google.calendar.events.create');
    });

    it('reads a synonym of a thing sent opening a job before a thing some task knows as where such things are ("gmail msg 18a9")', () => {
      expect(first('gmail msg 18b2c4d6e8f0a1b3 whole body')?.id).to.equal('google.gmail.messages.get');
      expect(first('gmail bob@acme.com: running 10 min late')?.id).to.equal('google.gmail.send');
    });

    it('reads a sentence\'s end after a date or a clock time, and a question in the past about a date and time as one a time task answers', () => {
      expect(jobWords('It began at 22:15. What was that in Tokyo?').find((word) => word.word === '22:15')?.ends).to.equal('.');
      expect(first('Our logs are in UTC and the outage began at 2025-02-11 06:40. What was that in Asia/Tokyo local time?')?.id).to.equal('builtin.time.convert');
    });

    it('reads the asker\'s someone\'s thing in a sentence setting the scene as no thing kept elsewhere ("My sister\'s living in Perth.")', () => {
      expect(first("My sister's living in Perth and I never know when to call. What's the date and time there right now?")?.id).to.equal('builtin.time.now');
      // In the request it still is: "what's my laptop's time zone".
      expect(rank(builtin, "what's my laptop's time zone", 5).candidates).to.deep.equal([]);
    });

    it('reads "a few" and "several" as counting, and max as the highs', () => {
      expect(first('could you find a few books on viking history?')?.id).to.equal('openlibrary.books.search');
      expect(first('give me the daily max temps for Oslo for the next several days')?.id).to.equal('open-meteo.weather.forecast');
    });

    it('reads a sentence wishing to see or know as the request when no sentence asks outright ("It\'d help to see ...")', () => {
      const job = "I run a study group on startups. It'd help to see the best-ranked stories on Hacker News right now.";
      expect(readJob(builtin, job).terms.filter((term) => term.scene).map((term) => term.word)).to.include('study');
      expect(first(job)?.id).to.equal('hacker-news.stories.top');
    });

    it('reads a verb after an adverb as the verb ("permanently delete the repo"), which no task may then do', () => {
      expect(termsOf('permanently delete the issue').find((term) => term.word === 'delete')?.role).to.equal('action');
      expect(rank(builtin, 'Please permanently delete Stripe customer cus_Q7r8 and all their data.', 5).candidates).to.deep.equal([]);
      // Not in a hyphenated adjective: "a beginner-friendly book" is a book.
      expect(first("looking for a beginner-friendly book on pottery, what's out there?")?.id).to.equal('openlibrary.books.search');
    });

    it('reads what a verb of generating asks for as a thing a task must make ("generate an invoice PDF"), which a generator naming it gives', () => {
      expect(rank(builtin, 'generate an invoice PDF for Initech', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'generate a quote PDF for Hooli', 5).candidates).to.deep.equal([]);
      expect(first('Could you generate four UUIDs for me?')?.id).to.equal('builtin.uuid.generate');
    });

    it('reads "new" opening a job before one thing as asking for a new one ("new slack channel design"), not before recent ones, and what "make" asks for', () => {
      expect(rank(builtin, 'new slack channel marketing', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, "new gh repo 'scratchpad'", 5).candidates).to.deep.equal([]);
      expect(first('new submissions on hacker news')?.id).to.equal('hacker-news.stories.new');
      // So is what "make" asks for: "make a private slack channel".
      expect(rank(builtin, 'make a private slack channel for the design team', 5).candidates).to.deep.equal([]);
    });

    it('reads a word no task knows opening a command before "all my" as its verb ("clear all my unread notifications")', () => {
      expect(rank(builtin, 'clear all my unread GitHub notifications', 5).candidates).to.deep.equal([]);
    });

    it('reads a deed after a word joined to it by a hyphen, or after a word no task knows, as the deed ("squash-merge", "bulk delete")', () => {
      expect(termsOf('squash-merge pull request 7 in acme/api').find((term) => term.word === 'merge')?.role).to.equal('action');
      expect(rank(builtin, 'squash-merge pull request 7 in acme/api', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'Checks are green. Squash-merge pull request 12 into main in acme/api.', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'bulk delete all spam comments on my WordPress site', 5).candidates).to.deep.equal([]);
      // A result verb's first part names the result ("URL-encode"): the verb does not become a deed of its own.
      expect(termsOf("url-encode 'a b&c'").find((term) => term.word === 'encode')?.role).to.not.equal('action');
    });

    it('reads a clause after a comma telling what the asker does next as no part of the job ("..., I\'ll import them into Excel later")', () => {
      expect(first("every country in Africa, I'll import them into Excel later")?.id).to.equal('restcountries.country.by_region');
      expect(first('latest exchange rates for the yen, going into the finance wiki')?.id).to.equal('frankfurter.currency.rates');
      // What the asker needs, or a greeting before the scene, is not such a clause.
      expect(readJob(builtin, 'For our newsletter, I need the public holidays in Spain in 2026').terms.map((term) => term.word)).to.include('public holidays');
      expect(first('For our newsletter, I need the public holidays in Spain in 2026')?.id).to.equal('nager-date.holidays.year');
      expect(first('Hello, I organise a garden party on Saturday in Bristol. Could you tell me what the weather will do the coming days, please?')?.id).to.equal('open-meteo.weather.forecast');
    });

    it('answers a command asking only to see with tasks that read, never one that writes ("show open rates for the last SendGrid campaign")', () => {
      expect(rank(builtin, "show open rates for last week's SendGrid campaign", 5).candidates).to.deep.equal([]);
      expect(first('show the 10 newest stripe customers')?.id).to.equal('stripe.customers.list');
    });

    it('reads a new thing named by a phrase as asked for ("a new public IP address")', () => {
      expect(readJob(builtin, 'get me a new public IP address').terms.find((term) => term.word === 'ip address')?.made).to.equal(true);
      expect(rank(builtin, 'get me a new public IP address', 5).candidates).to.deep.equal([]);
      expect(first('what is my public ip address')?.id).to.equal('ipify.ip.public');
    });

    it('reads tickets or seats for an event as nothing a task gives, not issue tickets of a repository', () => {
      expect(rank(builtin, 'get me 3 tickets for the Celtics game', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'two seats for Wicked on Broadway', 5).candidates).to.deep.equal([]);
      expect(first('open tickets for octo/site')?.id).to.equal('github.issues.list');
    });

    it('reads a phrase meaning a modifier ("at the moment") as one, so it names nothing a job is about', () => {
      expect(readJob(builtin, 'how crowded is the zoo at the moment').terms.find((term) => term.word === 'at the moment')?.role).to.equal('modifier');
      expect(rank(builtin, 'how crowded is the zoo at the moment?', 5).candidates).to.deep.equal([]);
      expect(first('is it raining in Lisbon at the moment')?.id).to.equal('open-meteo.weather.current');
    });

    it('reads a provider\'s name before the thing a reading verb seeks as where it is, not what ("list Stripe subscriptions")', () => {
      expect(rank(builtin, 'list Stripe subscriptions', 5).candidates).to.deep.equal([]);
      expect(first('list stripe charges')?.id).to.equal('stripe.charges.list');
    });

    it('reads a well-known service\'s name before a plural of a thing some task knows as that service\'s things ("open Jira tickets")', () => {
      expect(rank(builtin, 'open Jira tickets in the MOBILE project', 5).candidates).to.deep.equal([]);
      expect(rank(builtin, 'any new GitLab notifications?', 5).candidates).to.deep.equal([]);
      expect(first('any new GitHub notifications?')?.id).to.equal('github.notifications.list');
    });
  });
});
