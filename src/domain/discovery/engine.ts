import type { Catalog, Task } from '../catalog/types.js';
import { FITTED } from './parameters.js';
import { readJob, stem, words, type JobWord, type ReadJob } from './read.js';
import { DIMENSIONS, meanVector, nearest, similarity, wordVectors } from './similarity.js';
import { buildVocabulary, phraseAt, textTerms, type Vocabulary } from './vocabulary.js';

/**
 * The discovery engine (docs/discovery.md). Everything it knows of what can be done comes from the loaded
 * catalog: BM25F over each active task's title, keywords, capability, id, description, input fields and
 * provider name, the catalog's synonym groups, and word vectors that relate a job's words to the catalog's.
 * A task qualifies when its score and its coverage of the job's words clear fitted thresholds.
 */

export type Parameters = typeof FITTED;

const FIELDS = ['title', 'keywords', 'capability', 'id', 'description', 'inputs', 'provider', 'forms'] as const;
type Field = (typeof FIELDS)[number];
const K1 = 1.2;
const B = 0.75;
/** Catalog terms a job word may stand for by similarity, at most. */
const NEIGHBOURS = 4;
/** Job words whose similar terms are remembered per index. */
const REMEMBERED_WORDS = 50_000;
/** The least similarity `similarityLeast` may be fitted to. */
export const SIMILARITY_FLOOR = 0.4;
export const NEAR_MISSES = 5;
/** Job words read, at most: a job is a sentence or two, and each word costs a pass over its postings. */
const MAX_TERMS = 32;
/** Clauses of two terms or more, at most. */
const MAX_CLAUSES = MAX_TERMS / 2;
/** Positions in a task's `sums` (see `scratch`): its score, the job terms it matched, its coverage of the whole job, then each clause's coverage. */
const SCORE = 0;
const MATCHED = 1;
const COVERED = 2;
const CLAUSES = 3;
/** Bounds on a task's value are raised by this share: a cosine of single-precision unit vectors may pass 1 by a hair. */
const BOUND_SLACK = 1 + 1e-6;

interface Postings {
  docs: Uint32Array;
  /** idf times the saturated, length-normalised, field-weighted term frequency: the term's BM25F share. */
  weights: Float64Array;
  /** 1 where the term names the task (any field but its description and inputs), not only describes it. */
  named: Uint8Array;
}

/** A catalog term a job word stands for, and how much a match on it counts (1 for the word itself). */
interface Alternative {
  term: string;
  weight: number;
}

export interface DiscoveryIndex {
  version: string;
  parameters: Parameters;
  /** Active tasks; a task's position is its document number. */
  tasks: Task[];
  postings: Map<string, Postings>;
  idf: Map<string, number>;
  /** The idf of a term only one task has: the unit of scores and word weights, so they mean the same in a catalog of any size. */
  rarestIdf: number;
  vocabulary: Vocabulary;
  /** 1 for tasks that change something (not read-only). */
  writes: Uint8Array;
  /**
   * The words naming each task's deed (the first of its title, the last part of its capability and of its id), as
   * positions in `deedVocabulary`: document d's are `deedWords[deedStarts[d]]` to `deedWords[deedStarts[d + 1] - 1]`.
   */
  deedVocabulary: string[];
  deedStarts: Uint32Array;
  deedWords: Uint32Array;
  /**
   * Each job verb's similarity to the words of `deedVocabulary`, each worked out when a task naming it is valued, and
   * remembered. Shared like `neighbours`.
   */
  deedCloseness: Map<string, DeedCloseness>;
  /** Each task's position in the order of task ids: ties between equal values go by it. */
  idOrder: Uint32Array;
  /** 1 for tasks requiring an identifier (an input named id, ..._id, key or number). */
  takesIdentifier: Uint8Array;
  /** The stems of the words naming each input a task requires. */
  requiredInputs: string[][][];
  /** Each word of the catalog's text as written (at least TYPO_LENGTH - 1 letters), and its term. */
  writtenWords: string[];
  writtenTerms: string[];
  /** The terms that have a vector, and their unit vectors as rows. */
  vectorTerms: string[];
  vectorMatrix: Float32Array;
  /**
   * Each job word's most similar terms (at least SIMILARITY_FLOOR), remembered: the search costs a pass over the
   * catalog's terms. Shared by indexes of one catalog built with other parameters (scripts/discovery-fit.ts).
   */
  neighbours: Map<string, { term: string; similarity: number }[]>;
  /** Each job term's merged postings (see `reachOf`), and how many entries they hold. */
  reaches: Map<string, Reach>;
  reachEntries: number;
  /**
   * Per-document work space of `rank` and `reachOf`, zero between calls (ranking is synchronous), but for `values`,
   * read only where a call wrote them. `sums` holds a task's sums side by side, so that adding a posting touches one
   * cache line: from `doc * stride`, its score, the sum of the bits of the job terms it matched (distinct powers of
   * two, so the sum is their bitwise or), its coverage of the whole job, then its coverage of each clause.
   */
  scratch: { sums: Float64Array; values: Float64Array; best: Float64Array; bestWeight: Float64Array; negated: Uint8Array; reachedBits: Uint32Array };
}

/**
 * A word as written, unstemmed, as a term of its own: the capability and id of a task name its object in the number
 * it works on ("invoices.list", "invoice.create"), which a job's word as written meets.
 */
const asWritten = (word: string) => `=${word}`;

/** Input field names and descriptions: what a task takes says what it is about. */
function inputText(task: Task): string {
  const properties = (task.input as { properties?: Record<string, { description?: string }> }).properties ?? {};
  return Object.entries(properties).map(([name, property]) => `${name} ${property.description ?? ''}`).join(' ');
}

const IDENTIFIER_INPUT = /(^|_)(id|key|number)$|[a-z]Id$/;

function fieldTexts(task: Task, catalog: Catalog): Record<Field, string> {
  return {
    title: task.title,
    keywords: task.keywords.join(' . '),
    capability: task.capability,
    id: task.id.split('.').slice(1).join(' '),
    description: task.description,
    inputs: inputText(task),
    provider: `${task.provider} ${catalog.providers.get(task.provider)?.name ?? ''}`,
    forms: `${task.capability} ${task.id.split('.').slice(1).join(' ')}`,
  };
}

/** `sameCatalog`: an index of the same catalog built with other parameters, whose word vectors and neighbours are reused. */
export function buildIndex(catalog: Catalog, parameters: Parameters = FITTED, sameCatalog?: DiscoveryIndex): DiscoveryIndex {
  const tasks = [...catalog.tasks.values()].filter((task) => task.status === 'active');
  const vocabulary = buildVocabulary(catalog.synonyms);
  const fieldWeight: Record<Field, number> = {
    title: parameters.titleWeight,
    keywords: parameters.keywordsWeight,
    capability: parameters.capabilityWeight,
    id: parameters.idWeight,
    description: parameters.descriptionWeight,
    inputs: parameters.inputsWeight,
    provider: parameters.providerWeight,
    forms: parameters.formsWeight,
  };
  // Term frequencies per field, field lengths, and the words each term was written as (for its vector).
  const frequencies: Map<string, number>[][] = [];
  const lengths = tasks.map(() => new Float64Array(FIELDS.length));
  const spellings = new Map<string, Set<string>>();
  tasks.forEach((task, doc) => {
    const texts = fieldTexts(task, catalog);
    frequencies[doc] = FIELDS.map((field, f) => {
      const counts = new Map<string, number>();
      const terms = field === 'forms' ? words(texts[field]).map(asWritten) : textTerms(vocabulary, texts[field]);
      lengths[doc][f] = terms.length;
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      return counts;
    });
    for (const word of words(Object.values(texts).join(' '))) {
      const term = stem(word);
      let set = spellings.get(term);
      if (!set) spellings.set(term, (set = new Set()));
      if (set.size < 4) set.add(word);
    }
  });
  const averages = FIELDS.map((_, f) => lengths.reduce((sum, length) => sum + length[f], 0) / Math.max(tasks.length, 1) || 1);
  const docsOf = new Map<string, number[]>();
  frequencies.forEach((fields, doc) => {
    for (const term of new Set(fields.flatMap((counts) => [...counts.keys()]))) {
      const list = docsOf.get(term);
      if (list) list.push(doc);
      else docsOf.set(term, [doc]);
    }
  });
  const postings = new Map<string, Postings>();
  const idf = new Map<string, number>();
  for (const [term, docs] of docsOf) {
    const termIdf = Math.log(1 + (tasks.length - docs.length + 0.5) / (docs.length + 0.5));
    idf.set(term, termIdf);
    const weights = new Float64Array(docs.length);
    const named = new Uint8Array(docs.length);
    docs.forEach((doc, i) => {
      let frequency = 0;
      FIELDS.forEach((field, f) => {
        const count = frequencies[doc][f].get(term) ?? 0;
        if (count > 0) frequency += (fieldWeight[field] * count) / (1 - B + (B * lengths[doc][f]) / averages[f]);
        if (count > 0 && field !== 'description' && field !== 'inputs') named[i] = 1;
      });
      weights[i] = (termIdf * frequency) / (K1 + frequency);
    });
    postings.set(term, { docs: Uint32Array.from(docs), weights, named });
  }
  const { vectorTerms, vectorMatrix } = sameCatalog ?? termVectors(postings.keys(), spellings);
  const takesIdentifier = Uint8Array.from(tasks, (task) => (((task.input as { required?: string[] }).required ?? []).some((name) => IDENTIFIER_INPUT.test(name)) ? 1 : 0));
  const size = tasks.length;
  return {
    version: catalog.version,
    parameters,
    tasks,
    postings,
    idf,
    rarestIdf: Math.log(1 + (tasks.length - 0.5) / 1.5),
    vocabulary,
    writes: Uint8Array.from(tasks, (task) => (task.annotations.read_only ? 0 : 1)),
    takesIdentifier,
    requiredInputs: tasks.map((task) => ((task.input as { required?: string[] }).required ?? []).map((name) => words(name.replace(/([a-z])([A-Z])/g, '$1 $2')).map(stem))),
    ...deedsOf(tasks),
    deedCloseness: sameCatalog?.deedCloseness ?? new Map(),
    idOrder: idOrder(tasks),
    reaches: new Map(),
    reachEntries: 0,
    writtenWords: [...spellings.values()].flatMap((set) => [...set]).filter((word) => word.length >= TYPO_LENGTH - 1),
    writtenTerms: [...spellings].flatMap(([term, set]) => [...set].filter((word) => word.length >= TYPO_LENGTH - 1).map(() => term)),
    vectorTerms,
    vectorMatrix,
    neighbours: sameCatalog?.neighbours ?? new Map(),
    scratch: { sums: new Float64Array(size * (CLAUSES + MAX_CLAUSES)), values: new Float64Array(size), best: new Float64Array(size), bestWeight: new Float64Array(size), negated: new Uint8Array(size), reachedBits: new Uint32Array(Math.ceil(size / 32)) },
  };
}

function deedsOf(tasks: Task[]): Pick<DiscoveryIndex, 'deedVocabulary' | 'deedStarts' | 'deedWords'> {
  const positions = new Map<string, number>();
  const deedStarts = new Uint32Array(tasks.length + 1);
  const deedWords: number[] = [];
  tasks.forEach((task, doc) => {
    for (const deed of new Set([words(task.title)[0], ...words(task.capability.split('.').pop()!), ...words(task.id.split('.').pop()!)].filter(Boolean))) {
      if (!positions.has(deed)) positions.set(deed, positions.size);
      deedWords.push(positions.get(deed)!);
    }
    deedStarts[doc + 1] = deedWords.length;
  });
  return { deedVocabulary: [...positions.keys()], deedStarts, deedWords: Uint32Array.from(deedWords) };
}

function idOrder(tasks: Task[]): Uint32Array {
  const order = new Uint32Array(tasks.length);
  tasks.map((task, doc) => ({ id: task.id, doc })).sort((a, b) => (a.id < b.id ? -1 : 1)).forEach(({ doc }, position) => (order[doc] = position));
  return order;
}

/** The unit vector of each term that has one: the mean of the vectors of the words it was written as. */
function termVectors(terms: Iterable<string>, spellings: Map<string, Set<string>>): { vectorTerms: string[]; vectorMatrix: Float32Array } {
  const vectors = wordVectors();
  const vectorTerms: string[] = [];
  const rows: Float32Array[] = [];
  for (const term of terms) {
    const vector = meanVector(vectors, spellings.get(term) ?? term.split(' '));
    if (vector) {
      vectorTerms.push(term);
      rows.push(vector);
    }
  }
  const vectorMatrix = new Float32Array(rows.length * DIMENSIONS);
  rows.forEach((row, t) => vectorMatrix.set(row, t * DIMENSIONS));
  return { vectorTerms, vectorMatrix };
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

/** The catalog terms a job word stands for: itself, its synonyms, and the terms its vector is close to. */
function alternativesOf(index: DiscoveryIndex, word: JobWord): Alternative[] {
  const { synonymWeight, similarityWeight, similarityLeast } = index.parameters;
  const best = new Map<string, number>();
  const add = (term: string, weight: number) => {
    if (index.postings.has(term) && weight > (best.get(term) ?? 0)) best.set(term, weight);
  };
  add(asWritten(word.word), 1);
  for (const own of new Set([word.stem, stem(word.word)])) {
    add(own, 1);
    for (const synonym of index.vocabulary.synonyms.get(own) ?? []) add(synonym, synonymWeight);
  }
  for (const { term, similarity } of neighboursOf(index, word)) if (similarity >= similarityLeast) add(term, similarityWeight * similarity);
  // A word neither the catalog nor the word vectors know is read as a slip of the keyboard for a catalog word one edit away.
  if (best.size === 0 && word.word.length >= TYPO_LENGTH && !wordVectors().rows.has(word.word)) {
    index.writtenWords.forEach((written, at) => {
      if (oneEditApart(word.word, written)) add(index.writtenTerms[at], index.parameters.typoWeight);
    });
  }
  return [...best].map(([term, weight]) => ({ term, weight }));
}

/** Words shorter than this are not read as slips: too many words are one edit from a short one. */
const TYPO_LENGTH = 4;

/** Whether one letter added, dropped, changed, or two neighbours swapped, turn `a` into `b` (and they differ). */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && a[start] === b[start]) start += 1;
  if (a.length === b.length) {
    if (a.slice(start + 1) === b.slice(start + 1)) return true;
    return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
  }
  return a.length > b.length ? a.slice(start + 1) === b.slice(start) : a.slice(start) === b.slice(start + 1);
}

function neighboursOf(index: DiscoveryIndex, word: JobWord): { term: string; similarity: number }[] {
  const vectors = wordVectors();
  const spelling = vectors.rows.has(word.word) ? word.word : word.lemma;
  let found = index.neighbours.get(spelling);
  if (!found) {
    found = nearest(vectors, spelling, index.vectorMatrix, index.vectorTerms, SIMILARITY_FLOOR, NEIGHBOURS);
    if (index.neighbours.size >= REMEMBERED_WORDS) index.neighbours.clear();
    index.neighbours.set(spelling, found);
  }
  return found;
}

/** Cached deed closenesses, at most this many numbers in all: a verb's holds one number per deed word of the catalog. */
const REMEMBERED_CLOSENESS = 2 ** 21;

/** A verb's similarity to each word of the catalog's deed vocabulary, worked out when first asked for (NaN until then). */
interface DeedCloseness {
  spelling: string;
  values: Float64Array;
}

/** The closenesses of the job's verbs (as written, and their lemmas), remembered per index. */
function deedClosenesses(index: DiscoveryIndex, verbs: JobWord[]): DeedCloseness[] {
  return [...new Set(verbs.flatMap((verb) => [verb.lemma, verb.word]))].map((spelling) => {
    let found = index.deedCloseness.get(spelling);
    if (!found) {
      found = { spelling, values: new Float64Array(index.deedVocabulary.length).fill(Number.NaN) };
      if ((index.deedCloseness.size + 1) * index.deedVocabulary.length > REMEMBERED_CLOSENESS) index.deedCloseness.clear();
      index.deedCloseness.set(spelling, found);
    }
    return found;
  });
}

/** The best similarity of the job's verbs to the words naming a task's deed. */
function deedSimilarity(index: DiscoveryIndex, closenesses: DeedCloseness[], doc: number): number {
  let most = 0;
  for (const { spelling, values } of closenesses) {
    for (let at = index.deedStarts[doc]; at < index.deedStarts[doc + 1]; at += 1) {
      const deed = index.deedWords[at];
      if (Number.isNaN(values[deed])) values[deed] = similarity(wordVectors(), spelling, index.deedVocabulary[deed]);
      most = Math.max(most, values[deed]);
    }
  }
  return most;
}

/** A job's words as terms: a phrase of the catalog's synonyms as one term, each other word as itself. */
interface JobTerm {
  word: string;
  verb: boolean;
  proper: boolean;
  clause: number;
  reach: Reach;
}

/**
 * The tasks a job term reaches through its alternatives, one entry per task: the BM25F share of its best alternative
 * there, and how much the match counts for coverage (its weight, or times `describedCoverage` when it only describes
 * the task). Remembered per index, so a word's postings are merged once, not on every job naming it.
 */
interface Reach {
  /** The most a match on the term says: its best alternative's weight times its idf; 0 when no task knows the term. */
  known: number;
  docs: Uint32Array;
  shares: Float64Array;
  /** In single precision, as coverage has always been summed from. */
  counted: Float32Array;
}

/** Merged postings remembered per index, at most this many entries in all. */
const REMEMBERED_REACH = 2 ** 19;

function reachOf(index: DiscoveryIndex, key: string, alternatives: () => Alternative[]): Reach {
  const remembered = index.reaches.get(key);
  if (remembered) return remembered;
  const { best: termBest, bestWeight } = index.scratch;
  const { describedCoverage } = index.parameters;
  const reached: number[] = [];
  let known = 0;
  for (const { term, weight } of alternatives()) {
    const { docs, weights, named } = index.postings.get(term)!;
    known = Math.max(known, weight * index.idf.get(term)!);
    const described = weight * describedCoverage;
    for (let i = 0; i < docs.length; i += 1) {
      const doc = docs[i];
      const value = weights[i] * weight;
      const counted = named[i] ? weight : described;
      if (bestWeight[doc] === 0) reached.push(doc);
      if (value > termBest[doc]) termBest[doc] = value;
      if (counted > bestWeight[doc]) bestWeight[doc] = counted;
    }
  }
  // In document order, so a job's pass over the work space walks it forwards.
  reached.sort((a, b) => a - b);
  const reach: Reach = { known, docs: Uint32Array.from(reached), shares: Float64Array.from(reached, (doc) => termBest[doc]), counted: Float32Array.from(reached, (doc) => bestWeight[doc]) };
  for (const doc of reached) {
    termBest[doc] = 0;
    bestWeight[doc] = 0;
  }
  index.reachEntries += reached.length;
  if (index.reachEntries > REMEMBERED_REACH) {
    index.reaches.clear();
    index.reachEntries = reached.length;
  }
  index.reaches.set(key, reach);
  return reach;
}

function jobTerms(index: DiscoveryIndex, jobWords: JobWord[]): JobTerm[] {
  const stems = jobWords.map((word) => word.stem);
  const terms: JobTerm[] = [];
  const seen = new Set<string>();
  for (let position = 0; position < jobWords.length; position += 1) {
    const phrase = phraseAt(index.vocabulary, stems, position);
    if (phrase) {
      const term = phrase.join(' ');
      const alternatives = () => [term, ...(index.vocabulary.synonyms.get(term) ?? [])].filter((key) => index.postings.has(key)).map((key, at) => ({ term: key, weight: at === 0 ? 1 : index.parameters.synonymWeight }));
      terms.push({ word: jobWords.slice(position, position + phrase.length).map((word) => word.word).join(' '), verb: false, proper: false, clause: jobWords[position].clause, reach: reachOf(index, term, alternatives) });
      position += phrase.length - 1;
      continue;
    }
    const word = jobWords[position];
    if (seen.has(word.stem)) continue;
    seen.add(word.stem);
    const key = `${word.word} ${word.lemma} ${word.stem}`;
    terms.push({ word: word.word, verb: word.verb, proper: word.proper, clause: word.clause, reach: reachOf(index, key, () => alternativesOf(index, word)) });
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

export interface Ranked {
  task: Task;
  score: number;
  matched: string[];
  missed: string[];
  /** What qualifying weighed (see `qualifies`). */
  features: Features;
}

/**
 * Bias, ln(1 + BM25F score in units of the rarest idf), coverage of the job's words, deed met (1) or missed (-1), unknown words' share, a write
 * for a question, score against the best, the job's verbs' similarity to the task's deed, whether the job has a verb, the score again
 * when the job is a question.
 */
export type Features = [number, number, number, number, number, number, number, number, number, number];

/** The names of the qualifying weights, in the order of `Features`. */
export const QUALIFYING = ['qualifyBias', 'qualifyScore', 'qualifyCoverage', 'qualifyDeed', 'qualifyUnknown', 'qualifyQuestionWrite', 'qualifyRelative', 'qualifyDeedSimilarity', 'qualifyVerb', 'qualifyQuestionScore'] as const;

/** Qualifying weights under which every candidate qualifies: the ranking taken whole (the fit, and tests of ranking alone). */
export const EVERY_CANDIDATE_QUALIFIES = Object.fromEntries(QUALIFYING.map((name) => [name, name === 'qualifyBias' ? 1 : 0])) as Record<(typeof QUALIFYING)[number], number>;

/** A candidate qualifies when the weighed sum of its features is positive: the odds that it does the job are better than even. */
export function qualifies(parameters: Parameters, features: Features): boolean {
  return QUALIFYING.reduce((sum, name, at) => sum + parameters[name] * features[at], 0) > 0;
}

export interface Ranking {
  /** Qualifying tasks, best first, at most `limit`. */
  candidates: Ranked[];
  /** When nothing qualifies: the best-scoring tasks that matched anything, at most NEAR_MISSES. */
  nearMisses: Ranked[];
}

/** Whether document `a` goes before `b`: the higher value, then the task id, so the same job always ranks the same way. */
const before = (index: DiscoveryIndex, values: Float64Array, a: number, b: number) => values[a] > values[b] || (values[a] === values[b] && index.idOrder[a] < index.idOrder[b]);

/** Puts `doc` in its place among `kept` (sorted best first, at most `count`) if it belongs there. */
function keep(index: DiscoveryIndex, kept: number[], count: number, values: Float64Array, doc: number): void {
  if (kept.length === count && !before(index, values, doc, kept[count - 1])) return;
  let at = Math.min(kept.length, count - 1);
  while (at > 0 && before(index, values, doc, kept[at - 1])) at -= 1;
  kept.splice(at, 0, doc);
  if (kept.length > count) kept.pop();
}

/**
 * Adds a job term's reach to the work space: each task's score, the term's bit among those it matched, and its coverage
 * of the whole job and of the term's clause (at `clauseSlot` of the task's sums; 0 when the term is in no clause of
 * two terms or more).
 */
function accumulate(scratch: DiscoveryIndex['scratch'], reach: Reach, bit: number, importance: number, stride: number, clauseSlot: number): void {
  const { sums, reachedBits } = scratch;
  const { docs, shares, counted } = reach;
  for (let i = 0; i < docs.length; i += 1) {
    const doc = docs[i];
    const at = doc * stride;
    sums[at + SCORE] += shares[i];
    sums[at + MATCHED] += bit;
    reachedBits[doc >> 5] |= 1 << (doc & 31);
    const share = importance * counted[i];
    sums[at + COVERED] += share;
    if (clauseSlot > 0) sums[at + clauseSlot] += share;
  }
}

/**
 * Ranks the catalog's active tasks for a job in plain words. Each job word counts the BM25F share of its best
 * alternative in a task; a task's coverage is the share of the job's words it matches, each word weighed by
 * how much it says (its idf in the catalog, or `unknownWeight` when no task knows it; deeds times `deedWeight`).
 * Tasks are ordered by score times coverage to the `coveragePower` and the other factors of docs/discovery.md; the
 * first `limit` qualify by `qualifies`. Only the tasks whose score could reach the best values are valued in full;
 * `exhaustive` values every task the job reaches: the reference the pruned ranking is tested against.
 */
export function rank(index: DiscoveryIndex, job: string, limit: number, read: ReadJob = readJob(job), exhaustive = false): Ranking {
  const p = index.parameters;
  const terms = jobTerms(index, read.words);
  const { scratch } = index;
  const { sums, negated, reachedBits, values } = scratch;
  const size = index.tasks.length;
  const importance = terms.map((term) => {
    const { known } = term.reach;
    return (known > 0 ? known : (term.proper ? p.properUnknownWeight : p.unknownWeight) * index.rarestIdf) * (term.verb ? p.deedWeight : 1);
  });
  // The deeds the catalog knows: a task matching none of them does something else.
  const deeds = terms.reduce((mask, term, position) => (term.verb && term.reach.known > 0 ? mask | (2 ** position) : mask), 0);
  const clauses = [...new Set(terms.map((term) => term.clause))].map((clause) => terms.flatMap((term, position) => (term.clause === clause ? [position] : []))).filter((members) => members.length >= 2);
  const clauseOf = terms.map((_, position) => clauses.findIndex((members) => members.includes(position)));
  const stride = CLAUSES + clauses.length;
  const clauseTotals = clauses.map((members) => members.reduce((sum, position) => sum + importance[position], 0));
  const total = importance.reduce((sum, value) => sum + value, 0);
  // The tasks the job's terms reach lie from `first` to `last`.
  const first = terms.reduce((least, { reach }) => (reach.docs.length > 0 ? Math.min(least, reach.docs[0]) : least), size);
  const last = terms.reduce((most, { reach }) => (reach.docs.length > 0 ? Math.max(most, reach.docs[reach.docs.length - 1]) : most), -1);
  try {
    terms.forEach((term, position) => accumulate(scratch, term.reach, 2 ** position, importance[position], stride, clauseOf[position] < 0 ? 0 : CLAUSES + clauseOf[position]));
    for (const excluded of read.negated) for (const doc of index.postings.get(excluded)?.docs ?? []) negated[doc] = 1;
    // Coverage: the share of the job's weight a task matches, over the whole job and over its best clause.
    const coverage = (doc: number) => {
      const at = doc * stride;
      const whole = total > 0 ? sums[at + COVERED] / total : 0;
      let clause = whole;
      for (let c = 0; c < clauses.length; c += 1) if (clauseTotals[c] > 0) clause = Math.max(clause, sums[at + CLAUSES + c] / clauseTotals[c]);
      return p.clauseMix * clause + (1 - p.clauseMix) * whole;
    };
    const unknownShare = total > 0 ? terms.reduce((sum, term, position) => sum + (term.reach.known === 0 ? importance[position] : 0), 0) / total : 0;
    const deedOf = (doc: number) => (deeds === 0 ? 0 : (sums[doc * stride + MATCHED] & deeds) !== 0 ? 1 : -1);
    // How close the job's verbs come to the words naming the task's deed ("show" to "list", "ring" to "call").
    const verbs = read.words.filter((word) => word.verb);
    const deedCloseness = verbs.length > 0 ? deedClosenesses(index, verbs) : undefined;
    const jobStems = new Set(read.words.map((word) => word.stem));
    const unnamedInputs = (doc: number) => {
      let unnamed = 0;
      for (const input of index.requiredInputs[doc]) if (!input.some((part) => jobStems.has(part))) unnamed += 1;
      return unnamed;
    };
    const covering = (doc: number) => (coverage(doc) * (deedOf(doc) < 0 ? p.missedDeed : 1)) ** p.coveragePower;
    const { takesIdentifier } = index;
    const evaluate = (doc: number, cover: number) =>
      (values[doc] =
        sums[doc * stride + SCORE] *
        cover *
        (read.question && index.writes[doc] ? p.questionWrite : 1) *
        (read.identifier && takesIdentifier[doc] ? p.identifierFit : 1) *
        (negated[doc] ? p.negatedFit : 1) *
        // A job giving no value leaves a task's required inputs its words do not name unmet.
        (read.givesValue || index.requiredInputs[doc].length === 0 ? 1 : p.unmetInputs ** unnamedInputs(doc)) *
        (deedCloseness ? p.deedFloor + (1 - p.deedFloor) * deedSimilarity(index, deedCloseness, doc) : 1));
    // The factors after coverage are at most 1 but for those fitted above 1 (deed similarity is at most 1): a task's
    // value is at most its score times its coverage factor times their product `ceiling`, and its coverage factor is at
    // most `covers`. The best-scoring tasks are valued first; then a task is valued only when its score times both
    // ceilings, and then its score times its coverage factor times `ceiling`, could reach the last of the best values.
    const covers = Math.max(1, p.missedDeed) ** p.coveragePower;
    const ceiling = Math.max(1, p.questionWrite) * Math.max(1, p.negatedFit) * Math.max(1, p.unmetInputs) * BOUND_SLACK;
    const identified = ceiling * (read.identifier ? Math.max(1, p.identifierFit) : 1);
    const count = Math.max(limit, NEAR_MISSES);
    const ranked: number[] = [];
    let least = -Infinity;
    // Each word of `reachedBits` holds 32 tasks' bits: set ones are taken lowest first, in document order.
    for (let word = first >> 5; word <= last >> 5; word += 1) {
      for (let bits = reachedBits[word]; bits !== 0; bits &= bits - 1) {
        const doc = word * 32 + 31 - Math.clz32(bits & -bits);
        const most = sums[doc * stride + SCORE] * (takesIdentifier[doc] ? identified : ceiling);
        if (most * covers < least) continue;
        const cover = covering(doc);
        if (most * cover < least) continue;
        evaluate(doc, cover);
        keep(index, ranked, count, values, doc);
        if (ranked.length === count && !exhaustive) least = values[ranked[count - 1]];
      }
    }
    const top = ranked.length > 0 ? values[ranked[0]] : 0;
    /** What qualifying weighs: a linear score of these, fitted as a logistic regression (scripts/discovery-fit.ts). */
    const features = (doc: number): Features => {
      const score = Math.log1p(sums[doc * stride + SCORE] / index.rarestIdf);
      return [
        1,
        score,
        coverage(doc),
        deedOf(doc),
        unknownShare,
        read.question && index.writes[doc] ? 1 : 0,
        top > 0 ? values[doc] / top : 0,
        deedCloseness ? deedSimilarity(index, deedCloseness, doc) : 0,
        verbs.length > 0 ? 1 : 0,
        read.question ? score : 0,
      ];
    };
    const describe = (doc: number): Ranked => {
      const words = terms.filter((_, position) => sums[doc * stride + MATCHED] & (2 ** position)).map((term) => term.word);
      return { task: index.tasks[doc], score: Math.round(values[doc] * 1000) / 1000, matched: words, missed: terms.map((term) => term.word).filter((word) => !words.includes(word)), features: features(doc) };
    };
    const qualifying = ranked.slice(0, limit).filter((doc) => qualifies(p, features(doc)));
    if (qualifying.length > 0) return { candidates: qualifying.map(describe), nearMisses: [] };
    return { candidates: [], nearMisses: ranked.slice(0, NEAR_MISSES).map(describe) };
  } finally {
    reachedBits.fill(0, first >> 5, (last >> 5) + 1);
    sums.fill(0, first * stride, (last + 1) * stride);
    for (const excluded of read.negated) for (const doc of index.postings.get(excluded)?.docs ?? []) negated[doc] = 0;
  }
}
