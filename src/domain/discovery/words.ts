import { ACTION_VERBS, ASKERS, DETERMINERS, FORM_CHANGING_VERBS, NEUTRAL_VERBS, OPEN_RESULT_VERBS, RESULT_VERBS } from './lexicon.js';

/**
 * The word lists as sets, and what a single word is to them (docs/discovery.md, "Reading a job"): shared by
 * reading a job (job.ts) and by the readings that find it beyond the catalog (beyond.ts).
 */

export const actionVerbs = new Set(ACTION_VERBS);
export const neutralVerbs = new Set(NEUTRAL_VERBS);
export const determiners = new Set(DETERMINERS);
export const askers = new Set(ASKERS);
export const resultVerbs = new Set(RESULT_VERBS);
export const openResultVerbs = new Set(OPEN_RESULT_VERBS);
export const formChangingVerbs = new Set(FORM_CHANGING_VERBS);

/** A past participle ("named", "called", "titled"): it describes the noun before it. */
export const PARTICIPLE = /..[^e]ed$/;
/**
 * Endings of words that describe the noun after them: participles ("closed", "failing", "outstanding"),
 * superlatives ("biggest") and adjectives ("famous", "useful", "readable", "active", "endless").
 */
export const DESCRIBING = /..[^e]ed$|...ing$|..est$|..ous$|..ful$|..[ai]ble$|..ive$|..less$/;

/** Things written about something: "on" after one gives their topic ("news on Bitcoin", "a page on Instagram"). */
export const WRITINGS = new Set([
  'news', 'article', 'articles', 'story', 'stories', 'post', 'posts', 'page', 'pages', 'book', 'books', 'headline', 'headlines',
  'summary', 'paper', 'papers', 'essay', 'essays', 'report', 'reports', 'info', 'information', 'entry', 'thread', 'threads', 'blog', 'coverage',
]);

/** The verbs a word ending in -ing or -ed may be a form of ("looking" look, "closing" close, "setting" set). */
export function basesOf(word: string, ending: 'ing' | 'ed'): string[] {
  const base = word.slice(0, -ending.length);
  return [base, `${base}e`, base.at(-1) === base.at(-2) ? base.slice(0, -1) : ''].filter(Boolean);
}

/** A verb of the lists as written, or the verb of its -ing form ("looking", "sending", "setting"). */
export function verbIn(list: Set<string>, word: string): boolean {
  if (list.has(word)) return true;
  return word.endsWith('ing') && word.length >= 6 && basesOf(word, 'ing').some((base) => list.has(base));
}
