import { isStopWord, stem, words } from './read.js';

/**
 * Terms are what the index and a job share: the stem of one word ("email"), or a phrase a synonym group
 * names ("day off", "pull request"), written as its stems joined by a space. Phrases are found in task
 * text and jobs alike, stop words included ("who am i"), so a phrase matches as one term.
 */
export interface Vocabulary {
  /** Term to the terms it is interchangeable with (its synonym groups, itself excluded). */
  synonyms: Map<string, string[]>;
  /** First stem of each phrase to the phrases (stem sequences) starting with it, longest first. */
  phrases: Map<string, string[][]>;
}

export function buildVocabulary(groups: string[][]): Vocabulary {
  const related = new Map<string, Set<string>>();
  const phrases = new Map<string, string[][]>();
  for (const group of groups) {
    const entries = group.map((entry) => words(String(entry)).map(stem)).filter((stems) => stems.length > 0);
    for (const stems of entries) {
      if (stems.length > 1 && !phrases.get(stems[0])?.some((known) => known.join(' ') === stems.join(' '))) {
        phrases.set(stems[0], [...(phrases.get(stems[0]) ?? []), stems].sort((a, b) => b.length - a.length));
      }
    }
    const terms = entries.map((stems) => stems.join(' '));
    for (const term of terms) {
      const set = related.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) set.add(other);
      related.set(term, set);
    }
  }
  return { synonyms: new Map([...related].map(([term, set]) => [term, [...set].sort()])), phrases };
}

/** The phrase of the vocabulary starting at `position` of `stems`, longest first. */
export function phraseAt(vocabulary: Vocabulary, stems: string[], position: number): string[] | undefined {
  return vocabulary.phrases.get(stems[position])?.find((phrase) => phrase.every((part, offset) => stems[position + offset] === part));
}

/** The terms of a piece of catalog text: each content word's stem, plus each phrase found in it. */
export function textTerms(vocabulary: Vocabulary, text: string): string[] {
  const all = words(text);
  const stems = all.map(stem);
  const terms: string[] = [];
  all.forEach((word, position) => {
    if (!isStopWord(word) && word.length > 1) terms.push(stems[position]);
    const phrase = phraseAt(vocabulary, stems, position);
    if (phrase) terms.push(phrase.join(' '));
  });
  return terms;
}
