import {
  ACTION_VERBS, ASKERS, DETERMINERS, GIVING_VERBS, HOW_TO_FOLLOWERS, IMPLIED_VERBS, MODIFIERS, NEUTRAL_VERBS, POLITE_OPENERS, QUESTION_WORDS,
} from './lexicon.js';
import { jobWords, stem, type JobWord } from './text.js';
import { phraseAt, stopWords, type Vocabulary } from './vocabulary.js';

/**
 * Reading a job sentence into the terms discovery weighs (docs/discovery.md, "Action and object words").
 * Each distinct word gets a role: `action` (a verb that changes or transforms something: the task must
 * match one of them), `object` (what the job is about: the task must match one of them), `neutral` (verbs
 * that only ask to see, or light verbs) and `modifier` (when, which one): these two only help ranking.
 */

export type WordRole = 'action' | 'object' | 'neutral' | 'modifier';

export interface JobTerm {
  /** As written in the job (lower case); a phrase is its words joined by a space. */
  word: string;
  role: WordRole;
  /** Index terms that match it: its own term at weight 1, its synonyms a little less. */
  alternatives: Array<{ term: string; weight: number }>;
}

export interface Job {
  terms: JobTerm[];
  /** Opens with a question word: it asks to know something, so only tasks that read can answer it. */
  question: boolean;
}

/** What reading a job needs from the index. */
export interface JobContext {
  vocabulary: Vocabulary;
  /** Terms some task has. */
  has(term: string): boolean;
  /** Terms of task ids, titles, keywords, capabilities and provider names: words that name tasks. */
  names: Set<string>;
}

/** A synonym counts a little less than the job's own word, so exact wording wins a tie. */
export const SYNONYM_WEIGHT = 0.8;
/** Internal safety cap on distinct job terms scored (a bit each in a 32-bit mask), not a product limit. */
const MAX_JOB_TERMS = 32;

const actionVerbs = new Set(ACTION_VERBS);
const neutralVerbs = new Set(NEUTRAL_VERBS);
const modifiers = new Set(MODIFIERS);
const determiners = new Set(DETERMINERS);
const questionWords = new Set(QUESTION_WORDS);
const howToFollowers = new Set(HOW_TO_FOLLOWERS);
const politeOpeners = new Set(POLITE_OPENERS);
const askers = new Set(ASKERS);
const givingVerbs = new Set(GIVING_VERBS);

function alternativesOf(context: JobContext, term: string): JobTerm['alternatives'] {
  return [{ term, weight: 1 }, ...(context.vocabulary.synonyms.get(term) ?? []).map((synonym) => ({ term: synonym, weight: SYNONYM_WEIGHT }))].filter(
    (alternative) => context.has(alternative.term),
  );
}

function isQuestion([first, second]: JobWord[]): boolean {
  if (!first || !questionWords.has(first.word)) return false;
  return first.word !== 'how' || !howToFollowers.has(second?.word ?? '');
}

/** The opening word of a command when it means another verb ("email my boss ...", "tell the team ..."). */
function openerWithImpliedVerb(all: JobWord[]): JobWord | undefined {
  const at = all.findIndex((word) => !politeOpeners.has(word.word));
  const opener = all[at];
  if (!opener || !Object.hasOwn(IMPLIED_VERBS, opener.word)) return undefined;
  return askers.has(all[at + 1]?.word ?? '') ? undefined : opener;
}

/**
 * Only the verb's own form is an action or neutral verb (stems would make "general" a "generate").
 * After a determiner or another content word it is a noun ("the post", "blog post"); in a question it
 * describes rather than asks ("which countries pay with the euro"); "send me" only asks to be given.
 */
function roleOf(word: string, previous: JobWord | undefined, next: JobWord | undefined, question: boolean): WordRole {
  if (actionVerbs.has(word)) {
    if (previous && (determiners.has(previous.word) || !stopWords.has(previous.word))) return 'object';
    if (question || (givingVerbs.has(word) && askers.has(next?.word ?? ''))) return 'neutral';
    return 'action';
  }
  if (neutralVerbs.has(word)) return 'neutral';
  if (modifiers.has(word)) return 'modifier';
  return 'object';
}

/**
 * The job's terms. Dropped: stop words, one-letter words, literals (numbers, URLs, e-mail addresses,
 * paths, #channels, quoted text) and names (capitalised inside the sentence, or with digits) that no
 * task is named by: those are the task's input ("Paris", "Marie Curie"), not the job.
 */
export function readJob(context: JobContext, text: string): Job {
  const all = jobWords(text);
  const stems = all.map((word) => word.stem);
  const question = isQuestion(all);
  const terms: JobTerm[] = [];
  const seen = new Set<string>();
  const add = (key: string, term: JobTerm) => {
    if (seen.has(key) || terms.length === MAX_JOB_TERMS) return;
    seen.add(key);
    terms.push(term);
  };
  const opener = question ? undefined : openerWithImpliedVerb(all);
  if (opener) add(`verb ${opener.word}`, { word: opener.word, role: 'action', alternatives: alternativesOf(context, stem(IMPLIED_VERBS[opener.word])) });
  for (let position = 0; position < all.length; position += 1) {
    const phrase = phraseAt(context.vocabulary, stems, position);
    if (phrase) {
      const words = all.slice(position, position + phrase.length).map((word) => word.word);
      add(phrase.join(' '), { word: words.join(' '), role: 'object', alternatives: alternativesOf(context, phrase.join(' ')) });
      position += phrase.length - 1;
      continue;
    }
    const current = all[position];
    if (current.literal || stopWords.has(current.word) || current.word.length === 1) continue;
    const alternatives = alternativesOf(context, current.stem);
    if (current.nameLike && !alternatives.some((alternative) => context.names.has(alternative.term))) continue;
    add(current.stem, { word: current.word, role: roleOf(current.word, all[position - 1], all[position + 1], question), alternatives });
  }
  return { terms, question };
}
