import { ACTION_VERBS, ASKERS, DETERMINERS, NEUTRAL_VERBS } from './lexicon.js';

/**
 * The word lists as sets, and what a single word is to them (docs/discovery.md, "Reading a job"): shared by
 * reading a job (job.ts) and by the readings that find it beyond the catalog (beyond.ts).
 */

export const actionVerbs = new Set(ACTION_VERBS);
export const neutralVerbs = new Set(NEUTRAL_VERBS);
export const determiners = new Set(DETERMINERS);
export const askers = new Set(ASKERS);

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

/** A verb of the lists as written, or the verb of its -ing form ("looking", "sending", "setting"). */
export function verbIn(list: Set<string>, word: string): boolean {
  if (list.has(word)) return true;
  if (!word.endsWith('ing') || word.length < 6) return false;
  const base = word.slice(0, -3);
  return list.has(base) || list.has(`${base}e`) || (base.at(-1) === base.at(-2) && list.has(base.slice(0, -1)));
}
