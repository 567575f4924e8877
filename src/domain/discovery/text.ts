import { stemmer } from 'stemmer';

/** Porter stems that would merge unrelated words ("news" would become "new"). */
const STEM_EXCEPTIONS = new Map([['news', 'news']]);

export function stem(word: string): string {
  return STEM_EXCEPTIONS.get(word) ?? stemmer(word);
}

/** Possessive and negative endings ("what's", "don't") carry no meaning for ranking. */
const CONTRACTION = /['’](s|t|re|ll|ve|d|m)(?![\p{L}\p{N}])/giu;
const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u;

/** Lowercase words of catalog text: prose, dotted ids, snake_case and kebab-case all split into words. */
export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(CONTRACTION, '')
    .split(WORD_SEPARATOR)
    .filter(Boolean);
}

/** One word of a job sentence, with what is needed to tell a named thing (an argument) from a job word. */
export interface JobWord {
  word: string;
  stem: string;
  /**
   * Never a job word: a number, or a piece of a URL, e-mail address, path or quoted string.
   * Such things are the task's input, not what the task is.
   */
  literal: boolean;
  /** Written with a capital inside a sentence, or with digits: an argument when no task knows the word. */
  nameLike: boolean;
}

const QUOTED = /"[^"]*"|“[^”]*”/gu;
const LITERAL_CHUNK = /@|:\/\/|[\p{L}\p{N}]\/[\p{L}\p{N}]|^[^\p{L}]*$/u;
const SENTENCE_END = /[.!?:;]$/;

/** The words of a job sentence, in order. */
export function jobWords(job: string): JobWord[] {
  const result: JobWord[] = [];
  let sentenceStart = true;
  for (const chunk of job.normalize('NFKC').replace(QUOTED, ' . ').split(/\s+/u).filter(Boolean)) {
    const literalChunk = LITERAL_CHUNK.test(chunk);
    const capitalized = /^[^\p{L}\p{N}]*\p{Lu}/u.test(chunk) && !sentenceStart;
    for (const word of words(chunk)) {
      result.push({ word, stem: stem(word), literal: literalChunk || /^\p{N}+$/u.test(word), nameLike: capitalized || /\p{N}/u.test(word) });
    }
    sentenceStart = SENTENCE_END.test(chunk);
  }
  return result;
}
