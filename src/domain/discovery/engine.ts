import type { Catalog, Task } from '../catalog/types.js';
import { ACTION_VERBS, MODIFIERS, NEUTRAL_VERBS, STOP_WORDS } from './lexicon.js';
import { jobWords, stem, words } from './text.js';

/**
 * The discovery engine (docs/discovery.md): BM25F over each active task's id, title, description,
 * keywords, capability and provider name, with Porter stems, stop words and synonym groups. An index is
 * built once per catalog version; a query then costs only the postings of its own words.
 */

/** How much each field's words count; the title says best what a task is. */
const FIELD_WEIGHTS = { title: 3, keywords: 2, capability: 2, id: 1.5, description: 1, provider: 1 } as const;
const K1 = 1.2;
const B = 0.75;
/** A synonym counts a little less than the job's own word, so exact wording wins a tie. */
const SYNONYM_WEIGHT = 0.8;
/**
 * The least score a candidate needs: about one distinctive word in a title, or two common ones. A lone
 * match on a word most tasks share (its idf near ln 2) stays below it.
 */
export const MIN_SCORE = 2;
/** Internal safety cap on distinct job words scored (a bit each in a 32-bit mask), not a product limit. */
const MAX_JOB_TERMS = 32;

const stopWords = new Set(STOP_WORDS);
const neutralVerbs = new Set(NEUTRAL_VERBS);
const actionVerbs = new Set(ACTION_VERBS);
const modifiers = new Set(MODIFIERS);
const neutralStems = new Set(NEUTRAL_VERBS.map(stem));
const actionStems = new Set(ACTION_VERBS.map(stem));

export type WordRole = 'action' | 'object' | 'neutral' | 'modifier';

interface Postings {
  docs: Uint32Array;
  /** idf times the saturated, length-normalised field-weighted term frequency: the term's BM25 share. */
  weights: Float64Array;
}

export interface DiscoveryIndex {
  version: string;
  /** Active tasks; a task's position is its document number. */
  tasks: Task[];
  postings: Map<string, Postings>;
  /** Stem to the stems it is interchangeable with (its synonym groups, itself excluded). */
  synonyms: Map<string, string[]>;
}

function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !stopWords.has(word))
    .map(stem);
}

function buildSynonyms(groups: string[][]): Map<string, string[]> {
  const related = new Map<string, Set<string>>();
  for (const group of groups) {
    // An entry of several words ("pull request") cannot stand for one word; only one-word entries join.
    const stems = group.map((entry) => words(String(entry))).filter((parts) => parts.length === 1).map(([word]) => stem(word));
    for (const one of stems) {
      const set = related.get(one) ?? new Set<string>();
      for (const other of stems) if (other !== one) set.add(other);
      related.set(one, set);
    }
  }
  return new Map([...related].map(([key, set]) => [key, [...set].sort()]));
}

export function buildIndex(catalog: Catalog): DiscoveryIndex {
  const tasks = [...catalog.tasks.values()].filter((task) => task.status === 'active').sort((a, b) => (a.id < b.id ? -1 : 1));
  const frequencies: Map<string, number>[] = [];
  const lengths: number[] = [];
  for (const task of tasks) {
    const fields: Record<keyof typeof FIELD_WEIGHTS, string> = {
      title: task.title,
      keywords: task.keywords.join(' '),
      capability: task.capability,
      id: task.id,
      description: task.description,
      provider: catalog.providers.get(task.provider)?.name ?? task.provider,
    };
    const frequency = new Map<string, number>();
    let length = 0;
    for (const [field, weight] of Object.entries(FIELD_WEIGHTS)) {
      for (const term of contentStems(fields[field as keyof typeof FIELD_WEIGHTS])) {
        frequency.set(term, (frequency.get(term) ?? 0) + weight);
        length += weight;
      }
    }
    frequencies.push(frequency);
    lengths.push(length);
  }
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(tasks.length, 1);
  const documentFrequency = new Map<string, number>();
  for (const frequency of frequencies) for (const term of frequency.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);

  const building = new Map<string, { docs: number[]; weights: number[] }>();
  frequencies.forEach((frequency, doc) => {
    const norm = K1 * (1 - B + (B * lengths[doc]) / averageLength);
    for (const [term, tf] of frequency) {
      const df = documentFrequency.get(term)!;
      const idf = Math.log(1 + (tasks.length - df + 0.5) / (df + 0.5));
      const entry = building.get(term) ?? { docs: [], weights: [] };
      entry.docs.push(doc);
      entry.weights.push((idf * tf * (K1 + 1)) / (tf + norm));
      building.set(term, entry);
    }
  });
  const postings = new Map<string, Postings>();
  for (const [term, entry] of building) postings.set(term, { docs: Uint32Array.from(entry.docs), weights: Float64Array.from(entry.weights) });
  return { version: catalog.version, tasks, postings, synonyms: buildSynonyms(catalog.synonyms) };
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

/** One distinct word of the job, with the index terms that can match it. */
export interface JobTerm {
  word: string;
  role: WordRole;
  alternatives: Array<{ term: string; weight: number }>;
}

function roleOf(word: string, wordStem: string): WordRole {
  if (actionVerbs.has(word)) return 'action';
  if (neutralVerbs.has(word)) return 'neutral';
  if (modifiers.has(word)) return 'modifier';
  if (actionStems.has(wordStem)) return 'action';
  if (neutralStems.has(wordStem)) return 'neutral';
  return 'object';
}

/**
 * The job's words that discovery weighs: stop words and literals (numbers, URLs, quoted text) dropped,
 * and so are names (capitalised inside the sentence, or with digits) that no task knows: those are
 * the task's arguments ("Paris", "hapijs/hapi"), not the job.
 */
export function readJob(index: DiscoveryIndex, job: string): JobTerm[] {
  const terms: JobTerm[] = [];
  const seen = new Set<string>();
  for (const { word, stem: wordStem, literal, nameLike } of jobWords(job)) {
    if (literal || stopWords.has(word) || seen.has(wordStem)) continue;
    const alternatives = [{ term: wordStem, weight: 1 }, ...(index.synonyms.get(wordStem) ?? []).map((term) => ({ term, weight: SYNONYM_WEIGHT }))]
      .filter(({ term }) => index.postings.has(term));
    if (nameLike && alternatives.length === 0) continue;
    seen.add(wordStem);
    terms.push({ word, role: roleOf(word, wordStem), alternatives });
    if (terms.length === MAX_JOB_TERMS) break;
  }
  return terms;
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

/** Score order, then id, so the same job always ranks the same way. */
function better(index: DiscoveryIndex, scores: Float64Array, a: number, b: number): boolean {
  return scores[a] !== scores[b] ? scores[a] > scores[b] : index.tasks[a].id < index.tasks[b].id;
}

/** The best `count` documents of `docs` in rank order (count is small: a bounded insertion keeps it linear). */
function best(index: DiscoveryIndex, scores: Float64Array, docs: Iterable<number>, count: number): number[] {
  const top: number[] = [];
  for (const doc of docs) {
    if (top.length === count && !better(index, scores, doc, top[count - 1])) continue;
    let at = top.length === count ? count - 1 : top.length;
    while (at > 0 && better(index, scores, doc, top[at - 1])) {
      top[at] = top[at - 1];
      at -= 1;
    }
    top[at] = doc;
  }
  return top;
}

/** Ranks the catalog's active tasks for a job in plain words. */
export function rank(index: DiscoveryIndex, job: string, limit: number): Ranking {
  const terms = readJob(index, job);
  const size = index.tasks.length;
  const scores = new Float64Array(size);
  const masks = new Uint32Array(size);
  const termBest = new Float64Array(size);
  const touched: number[] = [];
  let actionMask = 0;
  let objectMask = 0;
  terms.forEach((term, position) => {
    const bit = 1 << position;
    if (term.role === 'action') actionMask |= bit;
    if (term.role === 'object') objectMask |= bit;
    // A document matching several of a word's alternatives counts the best one once.
    const docs: number[] = [];
    for (const { term: key, weight } of term.alternatives) {
      const { docs: postingDocs, weights } = index.postings.get(key)!;
      for (let i = 0; i < postingDocs.length; i += 1) {
        const doc = postingDocs[i];
        const value = weights[i] * weight;
        if (termBest[doc] === 0) docs.push(doc);
        if (value > termBest[doc]) termBest[doc] = value;
      }
    }
    for (const doc of docs) {
      if (masks[doc] === 0) touched.push(doc);
      scores[doc] += termBest[doc];
      masks[doc] |= bit;
      termBest[doc] = 0;
    }
  });

  const describe = (doc: number): Ranked => ({
    task: index.tasks[doc],
    score: Math.round(scores[doc] * 1000) / 1000,
    matched: terms.filter((_, position) => masks[doc] & (1 << position)).map((term) => term.word),
    missed: terms.filter((_, position) => !(masks[doc] & (1 << position))).map((term) => term.word),
  });
  const qualifies = (doc: number) =>
    scores[doc] >= MIN_SCORE &&
    (actionMask === 0 || (masks[doc] & actionMask) !== 0) &&
    (objectMask === 0 || (masks[doc] & objectMask) !== 0);
  const candidates = actionMask === 0 && objectMask === 0 ? [] : best(index, scores, touched.filter(qualifies), limit);
  if (candidates.length > 0) return { candidates: candidates.map(describe), nearMisses: [] };
  return { candidates: [], nearMisses: best(index, scores, touched, NEAR_MISSES).map(describe) };
}
