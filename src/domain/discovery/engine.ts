import type { Catalog, Task } from '../catalog/types.js';
import { GIVES_AMOUNT, GIVES_CHANNEL, GIVES_CODE, GIVES_DATE, GIVES_DOCUMENT, GIVES_ENCODED, GIVES_PATH, GIVES_RANGE, GIVES_TIME, GIVES_TOPIC, GIVES_YEAR, readJob, type JobContext, type JobTerm } from './job.js';
import { CREATING_VERBS, MODIFIERS, RESULT_VERBS } from './lexicon.js';
import { stem, words } from './text.js';
import { buildVocabulary, textTerms, type Vocabulary } from './vocabulary.js';
import { actionVerbs, formChangingVerbs, openResultVerbs, resultVerbs } from './words.js';

/**
 * The discovery engine (docs/discovery.md): BM25F over each active task's id, title, description,
 * keywords, capability and provider name, with Porter stems, stop words, synonym groups and phrases. An
 * index is built once per catalog version; a query then costs only the postings of its own terms.
 */

/** How much each field's words count; the title says best what a task is. */
const FIELD_WEIGHTS = { title: 3, keywords: 2, capability: 2, id: 1.5, description: 1, provider: 1 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const K1 = 1.2;
const B = 0.75;
/**
 * The least score a candidate needs: about one distinctive word in a title, or two common ones. A lone
 * match on a word most tasks share (its idf near ln 2) stays below it.
 */
export const MIN_SCORE = 2;

/** A job's topic ("books about the history of Rome") counts this much of its other words: it says what to look for, not which task. */
const TOPIC_WEIGHT = 0.5;
/** A phrase saying how a question is asked ("what is", "who was") counts this much of a word naming a thing. */
const MANNER_WEIGHT = 0.5;
/** A word of a sentence that only sets the scene counts this much of a word of the request. */
const SCENE_WEIGHT = 0.5;
/** A task requiring an argument the job gives (a date, a clock time, a topic to search for) scores this much more. */
const ARGUMENT_FIT = 1.2;
/** A task reading one record by id scores this much less for a job that names no id (and ARGUMENT_FIT for one that does). */
const ID_WANTING = 0.9;
/** A task taking as input what the job asks of a named thing ("the capital of Chile") scores this much: it answers the opposite question. */
const ANSWER_AS_INPUT = 0.7;
/** A task searching for a topic scores this much less for a job that neither gives a topic nor asks to search ("wiki the eiffel tower"). */
const QUERY_WANTING = 0.9;

/**
 * A task working on an amount (converting one) scores this much less for a job that gives no number ("the going
 * rate for euros"): it cannot run without one, and its keywords name the currencies such a job names.
 */
const AMOUNT_WANTING = 0.6;
/** A task taking, by an input pattern only identifiers meet, a value the job gives ("cus_9fQ2", an ISBN) scores this much more. */
const PATTERN_FIT = 1.3;
/** Numbers below this, and amounts below a hundredth of it, are ordinary (counts, days, years, prices): an input pattern accepting one is no identifier's. */
const ORDINARY_NUMBERS = 10_000;

const resultStems = new Set(RESULT_VERBS.map(stem));
const actionStems = new Set([...actionVerbs].map(stem));
/** Deeds of making a thing: creating it, and generating, making, posting, sending or minting one. */
const MAKING = new Set([...CREATING_VERBS, 'generate', 'make', 'post', 'send', 'mint'].map(stem));
const modifiers = new Set(MODIFIERS);

interface Postings {
  docs: Uint32Array;
  /** idf times the saturated, length-normalised field-weighted term frequency: the term's BM25 share. */
  weights: Float64Array;
  /** 1 where the term is in a field naming the task (title, keywords, capability, id, provider), not only its description. */
  named: Uint8Array;
}

export interface DiscoveryIndex extends JobContext {
  version: string;
  /** Active tasks; a task's position is its document number. */
  tasks: Task[];
  postings: Map<string, Postings>;
  vocabulary: Vocabulary;
  /** 1 for tasks that change something: kind action, or account tasks whose capability ends in an action verb. */
  writes: Uint8Array;
  /** The opposite of `writes`: 1 for tasks that change nothing. */
  reads: Uint8Array;
  /** 1 for tasks that need a record's id (a required input `id` or `..._id`): they read one record a job must identify. */
  needsId: Uint8Array;
  /** The stems of each task's required inputs ("capital" of the country by capital). */
  requires: Set<string>[];
  /** 1 for tasks that make something: they perform creating, generating or adding. */
  makes: Uint8Array;
  /** The arguments a task requires that a job may give (GIVES_DATE, GIVES_TIME, GIVES_TOPIC bits), see `takesArguments`. */
  takes: Uint16Array;
  /** Each task's provider, as a number shared by the tasks of one provider. */
  providerOf: Uint16Array;
  /** 1 for tasks that change nothing and perform a result verb ("encode", "slugify"): they give text in another form. */
  transforms: Uint8Array;
  /** Each term a task performs (see `performedVerbs`) to the tasks performing it. */
  performers: Map<string, Uint32Array>;
  /** Each other word of the title and keywords of a task that changes something to those tasks (see `performedVerbs`). */
  titlePerformers: Map<string, Uint32Array>;
  /**
   * The terms of the last two parts of each task's capability and id ("events", "create" of calendar.events.create):
   * what it makes, when it makes something, not where ("calendar", "spreadsheet").
   */
  identities: Set<string>[];
  /** Input patterns only identifiers meet (see `identifierPatterns`). */
  identifierPatterns: IdentifierPattern[];
  /**
   * Per-document work space of `rank`, zero between calls: ranking is synchronous, so one set per index
   * serves every request without allocating (and collecting) arrays the size of the catalog each time.
   */
  scratch: { scores: Float64Array; masks: Uint32Array; namedMasks: Uint32Array; termBest: Float64Array; performed: Uint32Array };
}

/** The names of the inputs a task requires. */
function requiredOf(task: Task): string[] {
  return (task.input as { required?: string[] }).required ?? [];
}

/** An input pattern only identifiers meet, with the tasks taking a value by it. */
interface IdentifierPattern {
  pattern: RegExp;
  docs: number[];
  /** The words of the input's name but "id" ("customer" of customer_id, "payment" and "intent" of payment_intent). */
  kind: string[];
}

/**
 * The input patterns of the tasks that no word of the index (in lower, capitalised or upper case) and no ordinary
 * number meets ("^cus_[A-Za-z0-9]+$", an ISBN's digits): a value they accept in a job names what it is.
 */
function identifierPatterns(tasks: Task[], terms: Iterable<string>): IdentifierPattern[] {
  const samples = [...terms].filter((term) => !term.includes(' ')).flatMap((term) => [term, term[0].toUpperCase() + term.slice(1), term.toUpperCase()]);
  for (let number = 0; number < ORDINARY_NUMBERS; number += 1) samples.push(String(number), String(number).padStart(2, '0'), (number / 100).toFixed(2));
  const bySource = new Map<string, IdentifierPattern | null>();
  tasks.forEach((task, doc) => {
    const properties = (task.input as { properties?: Record<string, { pattern?: string }> }).properties ?? {};
    for (const [field, { pattern: source }] of Object.entries(properties)) {
      if (source === undefined) continue;
      if (!bySource.has(source)) {
        const pattern = new RegExp(source, 'u');
        const kind = words(field).filter((word) => word !== 'id');
        bySource.set(source, samples.some((sample) => pattern.test(sample)) ? null : { pattern, docs: [], kind });
      }
      bySource.get(source)?.docs.push(doc);
    }
  });
  return [...bySource.values()].filter((entry) => entry !== null);
}

/**
 * The arguments a task requires that a job may give inline: a date (format date or date-time, or a field named
 * date or ending in _date), a clock time (format date-time, or a field named instant, time or timestamp) and
 * a topic to search for (a field named query, q, search, topic or keywords).
 */
function takesArguments(task: Task): number {
  const properties = (task.input as { properties?: Record<string, { format?: string }> }).properties ?? {};
  let bits = 0;
  let dates = 0;
  for (const field of requiredOf(task)) {
    const format = properties[field]?.format;
    if (format === 'date' || format === 'date-time' || /(^|_)date$|^(month|day)$/.test(field)) dates += 1;
    if (format === 'date-time' || /^(instant|time|timestamp)$/.test(field)) bits |= GIVES_TIME;
    if (/^(query|q|search|topic|keywords)$/.test(field)) bits |= GIVES_TOPIC;
    if (/^(amount|value|quantity)$/.test(field)) bits |= GIVES_AMOUNT;
    if (/^(owner|repo|repository)$/.test(field)) bits |= GIVES_PATH;
    if (field === 'base64') bits |= GIVES_ENCODED;
    if (field === 'document' || field === 'json') bits |= GIVES_DOCUMENT;
    if (field === 'code') bits |= GIVES_CODE;
    if (field === 'channel') bits |= GIVES_CHANNEL;
    if (field === 'year') bits |= GIVES_YEAR;
  }
  // A task requiring a start and an end date fits a range; one requiring a single date, a date.
  return bits | (dates >= 2 ? GIVES_RANGE : dates === 1 ? GIVES_DATE : 0);
}

function changesSomething(task: Task): boolean {
  return task.kind === 'action' || (task.kind === 'account' && actionVerbs.has(task.capability.split('.').pop()!));
}

/**
 * The terms naming what a task performs, which a job's action word must meet: the word its title and
 * description open with ("Convert an amount", "Refunds a payment"), the last part of its capability and id
 * ("currency.convert"), and for a task that changes something its verb keywords ("book", "schedule", "signup")
 * and the phrases among its keywords ("set up"). A task that only reads does not perform the verbs its keywords
 * mention: "Search for books" does not book, and listing pull requests does not merge one.
 *
 * `byOwnVerb` holds the other words of the title and keywords of a task that changes something ("payment" of
 * "Refund a Stripe payment"): a job's own verb meets them ("add or update a contact" does "update"), a synonym of
 * it does not ("charge" is a payment, but charging one is no refund).
 */
function performedVerbs(task: Task, writes: boolean, vocabulary: Vocabulary): { deeds: Set<string>; byOwnVerb: Set<string> } {
  const named = [
    ...words(task.title).slice(0, 1),
    words(task.description)[0],
    ...words(task.capability.split('.').pop()!),
    ...words(task.id.split('.').pop()!),
  ];
  // A task that changes nothing performs no deed that changes the world ("Book details by ISBN" does not book),
  // and a word saying which things it reads is no deed ("stories.new" does not create).
  const verbs = named.filter((word) => word !== undefined && (writes || ((!actionVerbs.has(word) || resultVerbs.has(word)) && !modifiers.has(word)))).map(stem);
  if (!writes) return { deeds: new Set(verbs), byOwnVerb: new Set() };
  const keywordDeedList = task.keywords.flatMap((keyword) => keywordDeeds(vocabulary, keyword));
  const deeds = new Set([...verbs, ...keywordDeedList.filter((deed) => deed.includes(' ') || actionStems.has(deed))]);
  const byOwnVerb = new Set([...words(task.title).slice(1).map(stem), ...keywordDeedList].filter((verb) => !deeds.has(verb)));
  return { deeds, byOwnVerb };
}

/** The deeds a keyword names: a phrase of the vocabulary as one ("set up" does not "set" a timer), and its other words. */
function keywordDeeds(vocabulary: Vocabulary, keyword: string): string[] {
  const terms = textTerms(vocabulary, keyword);
  const inPhrases = new Set(terms.filter((term) => term.includes(' ')).flatMap((phrase) => phrase.split(' ')));
  return terms.filter((term) => term.includes(' ') || !inPhrases.has(term));
}

/**
 * Terms that name providers: the words of a provider's slug and the phrases of its name ("github",
 * "hacker news"), when every task named by the term belongs to a provider it names. "news" is not one:
 * NewsAPI's tasks are named by it too.
 */
function providerNames(catalog: Catalog, vocabulary: Vocabulary, postings: Map<string, Postings>, providerOf: Uint16Array, providers: string[]): Map<string, number[]> {
  const byTerm = new Map<string, number[]>();
  providers.forEach((slug, number) => {
    const name = catalog.providers.get(slug)?.name ?? slug;
    const terms = [...textTerms(vocabulary, slug.replace(/[.-]/g, ' ')), ...textTerms(vocabulary, name).filter((term) => term.includes(' '))];
    for (const term of new Set(terms)) byTerm.set(term, [...(byTerm.get(term) ?? []), number]);
  });
  for (const [term, numbers] of byTerm) {
    const found = postings.get(term);
    // A task of another provider is named by the term too: it names no provider on its own.
    if (found?.docs.some((doc, at) => found.named[at] === 1 && !numbers.includes(providerOf[doc]))) byTerm.delete(term);
  }
  return byTerm;
}

/** A brand written as three or more capitalised words run together ("OpenWeatherMap"). */
const RUN_TOGETHER = /^(\p{Lu}\p{Ll}+){3,}$/u;

/** A provider named by words run together is known by their initials too ("OWM" for OpenWeatherMap): a synonym group of both. */
function initialisms(catalog: Catalog): string[][] {
  return [...catalog.providers.values()].filter((provider) => RUN_TOGETHER.test(provider.name)).map((provider) => [provider.name.match(/\p{Lu}/gu)!.join('').toLowerCase(), provider.name.toLowerCase()]);
}

/**
 * Each one-letter deletion of a word but of its first letter: a slip seldom touches a word's first letter, and a
 * letter more or less there often makes another word ("train", "rain").
 */
function deletionsOf(word: string): string[] {
  return Array.from({ length: word.length - 1 }, (_, at) => word.slice(0, at + 1) + word.slice(at + 2));
}

/** Each spelling of a word with two neighbouring letters after its first swapped ("exchnage", "agaisnt"). */
function swapsOf(word: string): string[] {
  return Array.from({ length: Math.max(word.length - 2, 0) }, (_, at) => word.slice(0, at + 1) + word[at + 2] + word[at + 1] + word.slice(at + 3)).filter((swapped) => swapped !== word);
}

/** Adds `value` to the list `map` holds for `key`. */
function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Terms this long or longer are found again from a typing slip. */
const SLIP_MIN_LENGTH = 4;
/** Words as written this long or longer are found again from a slip among the catalog's words: shorter ones too often are words of their own ("shred", "shared"). */
const SPELLING_SLIP_MIN_LENGTH = 6;
/** Words at least this long may have one vowel changed ("calender"): shorter ones too often make another word ("massage"). */
const VOWEL_SLIP_MIN_LENGTH = 8;
const VOWELS = ['a', 'e', 'i', 'o', 'u'];

/** The word with one vowel changed for another. */
function vowelChangesOf(word: string): string[] {
  const changed: string[] = [];
  for (let at = 0; at < word.length; at += 1) {
    if (!VOWELS.includes(word[at])) continue;
    for (const vowel of VOWELS) if (vowel !== word[at]) changed.push(word.slice(0, at) + vowel + word.slice(at + 1));
  }
  return changed;
}

export function buildIndex(catalog: Catalog): DiscoveryIndex {
  const tasks = [...catalog.tasks.values()].filter((task) => task.status === 'active').sort((a, b) => (a.id < b.id ? -1 : 1));
  const vocabulary = buildVocabulary([...catalog.synonyms, ...initialisms(catalog)]);
  const names = new Set<string>();
  const titles = new Set<string>();
  const frequencies: Map<string, number>[] = [];
  const namings: Set<string>[] = [];
  const lengths: number[] = [];
  for (const task of tasks) {
    const fields: Record<Field, string> = {
      title: task.title,
      keywords: task.keywords.join(' '),
      capability: task.capability,
      id: task.id,
      description: task.description,
      provider: catalog.providers.get(task.provider)?.name ?? task.provider,
    };
    const frequency = new Map<string, number>();
    const naming = new Set<string>();
    let length = 0;
    for (const [field, weight] of Object.entries(FIELD_WEIGHTS) as Array<[Field, number]>) {
      for (const term of textTerms(vocabulary, fields[field])) {
        frequency.set(term, (frequency.get(term) ?? 0) + weight);
        length += weight;
        // Descriptions name examples of input ("such as Canberra"); the other fields name the task.
        if (field !== 'description') {
          names.add(term);
          if (field !== 'keywords') titles.add(term);
          naming.add(term);
        }
      }
    }
    frequencies.push(frequency);
    namings.push(naming);
    lengths.push(length);
  }
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(tasks.length, 1);
  const documentFrequency = new Map<string, number>();
  for (const frequency of frequencies) for (const term of frequency.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);

  const building = new Map<string, { docs: number[]; weights: number[]; named: number[] }>();
  frequencies.forEach((frequency, doc) => {
    const norm = K1 * (1 - B + (B * lengths[doc]) / averageLength);
    for (const [term, tf] of frequency) {
      const df = documentFrequency.get(term)!;
      const idf = Math.log(1 + (tasks.length - df + 0.5) / (df + 0.5));
      const entry = building.get(term) ?? { docs: [], weights: [], named: [] };
      entry.docs.push(doc);
      entry.named.push(namings[doc].has(term) ? 1 : 0);
      entry.weights.push((idf * tf * (K1 + 1)) / (tf + norm));
      building.set(term, entry);
    }
  });
  const postings = new Map<string, Postings>();
  for (const [term, entry] of building) postings.set(term, { docs: Uint32Array.from(entry.docs), weights: Float64Array.from(entry.weights), named: Uint8Array.from(entry.named) });
  const providers = [...new Set(tasks.map((task) => task.provider))];
  const providerNumbers = new Map(providers.map((slug, number) => [slug, number]));
  const providerOf = Uint16Array.from(tasks, (task) => providerNumbers.get(task.provider)!);
  const writes = Uint8Array.from(tasks, (task) => (changesSomething(task) ? 1 : 0));
  const requires = tasks.map((task) => new Set(requiredOf(task).flatMap((field) => words(field).map(stem))));
  const needsId = Uint8Array.from(tasks, (task) => (requiredOf(task).some((field) => field === 'id' || field.endsWith('_id')) ? 1 : 0));
  const takes = Uint16Array.from(tasks, takesArguments);
  const makes = new Uint8Array(tasks.length);
  const performing = new Map<string, number[]>();
  const performingByTitle = new Map<string, number[]>();
  const transforms = new Uint8Array(tasks.length);
  tasks.forEach((task, doc) => {
    const { deeds, byOwnVerb } = performedVerbs(task, writes[doc] === 1, vocabulary);
    if ([...deeds].some((verb) => MAKING.has(verb))) makes[doc] = 1;
    for (const verb of deeds) {
      if (!writes[doc] && resultStems.has(verb)) transforms[doc] = 1;
      addTo(performing, verb, doc);
    }
    for (const verb of byOwnVerb) addTo(performingByTitle, verb, doc);
  });
  // A one-letter deletion of an index term to the terms it comes from.
  const deletions = new Map<string, string[]>();
  for (const term of postings.keys()) {
    if (term.length < SLIP_MIN_LENGTH || term.includes(' ')) continue;
    for (const deletion of new Set(deletionsOf(term))) addTo(deletions, deletion, term);
  }
  // The words of the catalog as written, to their terms: a letter left out of a word's ending changes its stem
  // ("ablity" is no slip of the stem "abil"), so such slips are looked for among the words too. Not a letter more,
  // which there too often makes another word ("tablet").
  const spellings = new Map<string, string>();
  for (const task of tasks) {
    for (const text of [task.title, task.description, ...task.keywords]) {
      for (const word of words(text)) if (word.length >= SPELLING_SLIP_MIN_LENGTH && postings.has(stem(word))) spellings.set(word, stem(word));
    }
  }
  const spellingDeletions = new Map<string, string[]>();
  for (const spelling of spellings.keys()) {
    for (const deletion of new Set(deletionsOf(spelling))) addTo(spellingDeletions, deletion, spelling);
  }
  // A letter left out ("wether"), one too many ("forecasst") or two swapped ("exchnage"); not a changed letter,
  // which too often makes another real word ("massage", "message").
  const similar = (term: string, word?: string): string[] => {
    const found = new Set(deletions.get(term));
    for (const deletion of deletionsOf(term)) if (postings.has(deletion)) found.add(deletion);
    for (const swapped of swapsOf(term)) if (postings.has(swapped)) found.add(swapped);
    if (word && word.length >= SPELLING_SLIP_MIN_LENGTH) {
      const changes = word.length >= VOWEL_SLIP_MIN_LENGTH ? vowelChangesOf(word) : [];
      for (const spelling of [...(spellingDeletions.get(word) ?? []), ...swapsOf(word), ...changes]) if (spellings.has(spelling)) found.add(spellings.get(spelling)!);
    }
    return [...found].sort();
  };
  const patterns = identifierPatterns(tasks, postings.keys());
  return {
    version: catalog.version,
    tasks,
    postings,
    vocabulary,
    names,
    titles,
    has: (term) => postings.has(term),
    similar,
    writes,
    reads: writes.map((write) => 1 - write),
    needsId,
    requires,
    takes,
    makes,
    providerOf,
    providerNames: providerNames(catalog, vocabulary, postings, providerOf, providers),
    performers: new Map([...performing].map(([verb, docs]) => [verb, Uint32Array.from(docs)])),
    titlePerformers: new Map([...performingByTitle].map(([verb, docs]) => [verb, Uint32Array.from(docs)])),
    transforms,
    identities: tasks.map((task) => new Set([task.capability, task.id].flatMap((name) => textTerms(vocabulary, name.split('.').slice(-2).join(' '))))),
    identifierPatterns: patterns,
    kindsOf: (chunk) => patterns.filter(({ pattern }) => pattern.test(chunk)).flatMap(({ kind }) => kind),
    scratch: {
      scores: new Float64Array(tasks.length),
      masks: new Uint32Array(tasks.length),
      namedMasks: new Uint32Array(tasks.length),
      termBest: new Float64Array(tasks.length),
      performed: new Uint32Array(tasks.length),
    },
  };
}

const indexes = new Map<string, DiscoveryIndex>();
/** A few versions stay built: a deployment has one catalog, tests a handful. */
const INDEXES_KEPT = 4;

/** The index of a catalog, built on first use of its version. */
export function indexFor(catalog: Catalog): DiscoveryIndex {
  let index = indexes.get(catalog.version);
  if (!index) {
    index = buildIndex(catalog);
    if (indexes.size >= INDEXES_KEPT) indexes.delete(indexes.keys().next().value!);
    indexes.set(catalog.version, index);
  }
  return index;
}

export interface Ranked {
  task: Task;
  score: number;
  matched: string[];
  missed: string[];
}

export interface Ranking {
  /** Qualifying tasks, best first, at most `limit`. */
  candidates: Ranked[];
  /** When nothing qualifies: the best-scoring tasks that matched anything, at most NEAR_MISSES. */
  nearMisses: Ranked[];
}

export const NEAR_MISSES = 5;

/**
 * Rank order: tasks of the preferred class first (when given), then score, then id, so the same job
 * always ranks the same way.
 */
type Order = (a: number, b: number) => boolean;

function rankOrder(index: DiscoveryIndex, scores: Float64Array, preferred?: Uint8Array): Order {
  return (a, b) => {
    if (preferred && preferred[a] !== preferred[b]) return preferred[a] > preferred[b];
    return scores[a] !== scores[b] ? scores[a] > scores[b] : index.tasks[a].id < index.tasks[b].id;
  };
}

/** The best `count` documents of `docs` (count is small: a bounded insertion keeps it linear). */
function best(docs: Iterable<number>, count: number, better: Order): number[] {
  const top: number[] = [];
  for (const doc of docs) {
    if (top.length === count && !better(doc, top[count - 1])) continue;
    let at = top.length === count ? count - 1 : top.length;
    while (at > 0 && better(doc, top[at - 1])) {
      top[at] = top[at - 1];
      at -= 1;
    }
    top[at] = doc;
  }
  return top;
}

/**
 * Ranks the catalog's active tasks for a job in plain words. A task qualifies when its score clears
 * MIN_SCORE; it performs one of the job's action words (when the job has any; a verb asking for a
 * worked-out result, "calculate", is met by any task that changes nothing; a task that changes something
 * also does "post a comment" when it performs "comment"); one of the job's object words (when it has any)
 * is in a field naming the task, not only in its description, which names examples of input ("the traffic
 * on the way to work" is not about an author's works); and, for a question, it changes nothing. A job asking to see something no task knows ("get
 * a haircut") qualifies nothing. A command with action words is served first by the tasks that change
 * something ("schedule a meeting" before listing the schedule).
 */
export function rank(index: DiscoveryIndex, job: string, limit: number): Ranking {
  const { terms, question, asksToSee, searches, sought, identifies, identifiers, gives, elsewhere, asksPast, asksOf } = readJob(index, job);
  const { scores, masks, namedMasks, termBest, performed } = index.scratch;
  const touched: number[] = [];
  const performing: number[] = [];
  const termDocs: number[] = [];
  let actionMask = 0;
  let resultMask = 0;
  let openResultMask = 0;
  let objectMask = 0;
  /** Object words of a date the job gives: what the job is about only when it names nothing else. */
  let dateMask = 0;
  /** Form-changing verbs ("convert") and the forms the job asks for ("to base64"). */
  let formMask = 0;
  let targetMask = 0;
  /** What the job's creating verbs ask to make ("create a new GitHub repository"): a task must name one. */
  const things: JobTerm[] = [];
  // A job whose every action names a transformation ("define ubiquitous", "slugify ...") names its input after
  // the verb: words no task knows there are the input, not something a task must cover. A verb saying only what
  // is wanted (convert, compute) does not say of what: "convert this video to mp4" needs a task knowing video.
  const actions = terms.filter((term) => term.role === 'action');
  const transformsOnly = actions.length > 0 && actions.every((term) => resultVerbs.has(term.word) && !openResultVerbs.has(term.word));
  const markPerformed = (doc: number, bit: number) => {
    if (performed[doc] === 0) performing.push(doc);
    performed[doc] |= bit;
  };
  // A job naming a provider ("reply to the hacker news comment", "a new GitHub repository") is that provider's.
  const namedProviders = terms.filter((term) => !term.topic).flatMap((term) => term.alternatives.flatMap(({ term: key }) => index.providerNames.get(key) ?? []));
  try {
    terms.forEach((term, position) => {
      const bit = 1 << position;
      if (term.role === 'action') {
        actionMask |= bit;
        if (resultVerbs.has(term.word)) resultMask |= bit;
        if (openResultVerbs.has(term.word) && !formChangingVerbs.has(term.word)) openResultMask |= bit;
        const perform = (verb: string, writersOnly: boolean, own: boolean) => {
          for (const doc of index.performers.get(verb) ?? []) if (!writersOnly || index.writes[doc]) markPerformed(doc, bit);
          if (own) for (const doc of index.titlePerformers.get(verb) ?? []) markPerformed(doc, bit);
        };
        for (const { term: verb, weight } of term.alternatives) perform(verb, false, weight === 1);
        if (formChangingVerbs.has(term.word)) formMask |= bit;
        for (const { term: verb, weight } of term.object?.alternatives ?? []) perform(verb, true, weight === 1);
        if (term.thing) things.push(term.thing);
      }
      if (term.role === 'object' && (term.alternatives.length > 0 || !transformsOnly)) {
        if (term.dated) dateMask |= bit;
        else objectMask |= bit;
      }
      if (term.target) targetMask |= bit;
      // A document matching several of a term's alternatives counts the best one once.
      termDocs.length = 0;
      const scale = term.topic ? TOPIC_WEIGHT : term.manner ? MANNER_WEIGHT : term.scene ? SCENE_WEIGHT : 1;
      for (const { term: key, weight } of term.alternatives) {
        const { docs, weights, named } = index.postings.get(key)!;
        for (let i = 0; i < docs.length; i += 1) {
          const doc = docs[i];
          if (named[i]) namedMasks[doc] |= bit;
          const value = weights[i] * weight * scale;
          if (termBest[doc] === 0) termDocs.push(doc);
          if (value > termBest[doc]) termBest[doc] = value;
        }
      }
      for (const doc of termDocs) {
        if (masks[doc] === 0) touched.push(doc);
        scores[doc] += termBest[doc];
        masks[doc] |= bit;
        termBest[doc] = 0;
      }
    });

    if (objectMask === 0) objectMask = dateMask;
    // "convert this to base64": a task giving text in another form converts it into the form it is named by.
    if (formMask !== 0) for (const doc of touched) if (index.transforms[doc] && namedMasks[doc] & targetMask) markPerformed(doc, formMask);
    // Two dates give a range: a task taking one date fits them no better than any other.
    const fits = gives & GIVES_RANGE ? gives & ~GIVES_DATE : gives;
    const listed = terms.find((term) => term.role === 'object' && !term.topic && term.alternatives.length > 0 && /[^s]s$/.test(term.word) && !index.providerNames.has(term.alternatives[0].term));
    const wantsQuery = !searches && !(gives & GIVES_TOPIC);
    if (identifiers.length > 0) {
      for (const { pattern, docs } of index.identifierPatterns) {
        if (identifiers.some((chunk) => pattern.test(chunk))) for (const doc of docs) if (masks[doc] !== 0) scores[doc] *= PATTERN_FIT;
      }
    }
    for (const doc of touched) {
      // "charges made to customer cus_1": the id says whose, the plural what is listed; one record of another kind is not it.
      if (index.needsId[doc]) scores[doc] *= identifies && !(listed && !listed.alternatives.some(({ term: key }) => index.identities[doc].has(key))) ? ARGUMENT_FIT : ID_WANTING;
      if (asksOf.some((asked) => index.requires[doc].has(asked))) scores[doc] *= ANSWER_AS_INPUT;
      if (index.takes[doc] & fits) scores[doc] *= ARGUMENT_FIT;
      if (wantsQuery && index.takes[doc] & GIVES_TOPIC) scores[doc] *= QUERY_WANTING;
      if (!(gives & GIVES_AMOUNT) && index.takes[doc] & GIVES_AMOUNT) scores[doc] *= AMOUNT_WANTING;
    }
    const performs = (doc: number) => performed[doc] | (index.writes[doc] ? 0 : openResultMask);
    // An action word a task has in its text but does not perform ("merge" for listing pull requests) is missed.
    const met = (doc: number) => masks[doc] & ~(actionMask & ~performs(doc));
    const describe = (doc: number): Ranked => {
      const words = met(doc);
      const matched = new Set(terms.filter((_, position) => words & (1 << position)).map((term) => term.word));
      const missed = new Set(terms.map((term) => term.word).filter((word) => !matched.has(word)));
      return { task: index.tasks[doc], score: Math.round(scores[doc] * 1000) / 1000, matched: [...matched], missed: [...missed] };
    };
    // "make a new private repo", "new slack channel #q4": with no deed named, a new thing is one a task must make.
    const madeThings = terms.filter((term) => term.made && term.alternatives.length > 0);
    const madeMask = actionMask === 0 ? madeThings.reduce((mask, term) => mask | (1 << terms.indexOf(term)), 0) : 0;
    // A task that changes something makes what its capability names (a post, not the channel it goes to); a generator what it names.
    const makesOneOf = (doc: number, made: JobTerm[]) => made.some((thing) => thing.alternatives.some(({ term: key }) => index.identities[doc].has(key)));
    const qualifies = (doc: number) =>
      scores[doc] >= MIN_SCORE &&
      !((question || asksToSee) && index.writes[doc]) &&
      (actionMask === 0 || (performs(doc) & actionMask) !== 0) &&
      (objectMask === 0 || (namedMasks[doc] & objectMask) !== 0 || (transformsOnly && (performed[doc] & resultMask) !== 0)) &&
      (things.length === 0 || makesOneOf(doc, things) || things.some((thing) => (thing.describers ?? []).some((word) => index.identities[doc].has(word.alternatives[0]?.term ?? '')))) &&
      (namedProviders.length === 0 || namedProviders.includes(index.providerOf[doc])) &&
      (madeMask === 0 || (index.makes[doc] === 1 && (index.writes[doc] ? makesOneOf(doc, madeThings) : (namedMasks[doc] & madeMask) !== 0))) &&
      (!asksPast || (index.takes[doc] & (GIVES_DATE | GIVES_TIME | GIVES_RANGE | GIVES_YEAR)) !== 0);
    const namesSomething = (actionMask !== 0 || objectMask !== 0) && !(sought && sought.alternatives.length === 0) && !elsewhere;
    const commandOrder = rankOrder(index, scores, !question && actionMask !== 0 ? index.writes : asksToSee ? index.reads : undefined);
    const candidates = namesSomething ? best(touched.filter(qualifies), limit, commandOrder) : [];
    if (candidates.length > 0) return { candidates: candidates.map(describe), nearMisses: [] };
    const close = touched.filter((doc) => met(doc) !== 0);
    return { candidates: [], nearMisses: best(close, NEAR_MISSES, rankOrder(index, scores)).map(describe) };
  } finally {
    for (const doc of touched) {
      scores[doc] = 0;
      masks[doc] = 0;
      namedMasks[doc] = 0;
    }
    for (const doc of performing) performed[doc] = 0;
  }
}
