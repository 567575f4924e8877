import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { stemmer } from 'stemmer';

/**
 * Reading a job in plain English with wink-nlp and its English model: sentence and clause boundaries,
 * parts of speech and lemmas, negation, and values (numbers, e-mail addresses, URLs, dates, amounts, quoted
 * text, paths, identifiers). Nothing here knows what a catalog offers: it says only how the job is written.
 */

/** The English reader, made on first use: its model takes a few hundred milliseconds to load. */
let reader: ReturnType<typeof winkNLP> | undefined;
const nlp = () => (reader ??= winkNLP(model, ['sbd', 'negation', 'pos']));

/** A word of the job that may name what a task does or works on. */
export interface JobWord {
  /** Lowercase, as written. */
  word: string;
  lemma: string;
  stem: string;
  /** A verb: the deed the job asks for. */
  verb: boolean;
  /** A proper noun: often a value (a name, a place) rather than what a task is. */
  proper: boolean;
  /** The clause the word is in, counted from 0: clauses end at punctuation, conjunctions and sentence ends. */
  clause: number;
}

export interface ReadJob {
  words: JobWord[];
  /** Words the job excludes ("not on Slack", "don't email"): a task named by them is not the one asked for. */
  negated: string[];
  /** The job asks something (what, which, who, how...), rather than asking for something to be done. */
  question: boolean;
  /** The job gives an identifier: a chunk mixing letters and digits, or a number after "#". */
  identifier: boolean;
  /** The job gives a value (quoted text, a path, a dotted or colon-joined name, a value token, a proper noun): what a task's required inputs take. */
  givesValue: boolean;
}

/** Quoted text is a value (a message, a title), never what the job asks of a task. */
const QUOTED = /"[^"]*"|“[^”]*”|‘[^’]*’|(?<![\p{L}\p{N}])'(?:[^']|(?<=\p{L})'(?=\p{L}))+'(?![\p{L}\p{N}])/gu;
/** Words joined by slashes ("acme/web", "feature/sso", "docs/guide.md") name a path, a repository or a branch: a value. */
const PATH = /(?<![\p{L}\p{N}_.:/-])[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.-]+)+/gu;
/** Words joined by dots ("node.js", "mail.acme.io", "v1.2.3") name a host, a file or a version: a value, read apart from the sentence (wink would end a sentence at each dot). */
const DOTTED = /(?<![\p{L}\p{N}_.@:/-])\p{L}[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]{2,})+(?![@\p{L}\p{N}_-]|\.[\p{L}\p{N}])/gu;
/**
 * A colon joining a word to a word ("team:payments", "is:open", "spotify:album") writes a qualifier: its words are read
 * apart, as one clause, and the job gives a value. Left to wink, ":p" or ":o" would be read as an emoticon.
 */
const JOINING_COLON = /(?<=[\p{L}\p{N}_]):(?=\p{L})/gu;
/** A chunk mixing letters and digits ("ENG-1423", "cus_9fQ2") or a number after "#": an identifier. */
const IDENTIFIER = /(?:^|\s)(?:#\d+|(?=[\w-]*\d)(?=[\w-]*\p{L})[\p{L}\d]+(?:[-_][\p{L}\d]+)+|\p{L}+\d+\w*)(?=$|[\s,.;:!?)])/u;
/** wink's token types that are values: a number, a date's day (4th), a time (3pm), an amount's currency, an address, a channel (#general), a handle (@oncall). */
const VALUE_TYPES = new Set(['number', 'ordinal', 'time', 'currency', 'email', 'url', 'hashtag', 'mention']);
/** Parts of speech that carry no deed or thing. */
const FUNCTION_TAGS = new Set(['PRON', 'DET', 'ADP', 'AUX', 'CCONJ', 'SCONJ', 'PART', 'INTJ', 'NUM', 'PUNCT', 'SYM', 'X', 'SPACE']);
/** Question words by their part of speech and position: a job opening with one asks something. */
const QUESTION_OPENERS = new Set(['what', 'whats', 'which', 'who', 'whose', 'when', 'where', 'why', 'how', 'hows']);

/** Parts of speech that open the object of a command's verb. */
const OBJECT_OPENERS = new Set(['DET', 'PRON', 'NUM']);
/** Parts of speech that end a clause: punctuation and conjunctions ("and", "because", "so that"). */
const CLAUSE_ENDS = new Set(['PUNCT', 'CCONJ', 'SCONJ']);

const stopWords = new Map<string, boolean>();

/** Whether wink's English model counts a lowercase word as a stop word (a word too common to mean anything). */
export function isStopWord(word: string): boolean {
  let stop = stopWords.get(word);
  if (stop === undefined) {
    stop = nlp().readDoc(word).tokens().out(nlp().its.stopWordFlag)[0] === true;
    if (stopWords.size < 100_000) stopWords.set(word, stop);
  }
  return stop;
}

const ACCENT = /\p{M}+/gu;
/** Text of ASCII characters only, which Unicode normalization leaves as it is: the call is skipped for it. */
const ASCII = /^[\x00-\x7f]*$/;

/** Lowercase words of catalog text: prose, dotted ids, snake_case and kebab-case all split into words. */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(ACCENT, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

const stems = new Map<string, string>();

/** A word's Porter stem, remembered (at most 100,000 words): catalogs and jobs repeat their words. */
export function stem(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    found = stemmer(word);
    if (stems.size < 100_000) stems.set(word, found);
  }
  return found;
}

/** Reads a job: its content words, what it excludes, whether it is a question, whether it names an identifier. */
export function readJob(job: string): ReadJob {
  const normal = ASCII.test(job) ? job : job.normalize('NFKC');
  const text = normal.replace(QUOTED, ' ');
  // What the model reads: paths and dotted names left out, colon-joined words apart.
  const prose = text.replace(PATH, ' ').replace(DOTTED, ' ').replace(JOINING_COLON, ' ');
  const doc = nlp().readDoc(prose);
  const its = nlp().its;
  // Each property of every token in one call: an item per token costs more than the reading it gives.
  const tokens = doc.tokens();
  const tags = tokens.out(its.pos).map(String);
  const normals = tokens.out(its.normal);
  const types = tokens.out(its.type);
  const stops = tokens.out(its.stopWordFlag);
  const negations = tokens.out(its.negationFlag);
  const lemmas = tokens.out(its.lemma as never).map(String);
  const read: ReadJob = { words: [], negated: [], question: false, identifier: IDENTIFIER.test(text), givesValue: text !== normal || prose !== text };
  let clause = 0;
  // wink's negation runs to the sentence's end; only the first content word after a negator is what it excludes.
  let afterNegated = false;
  for (const [start, end] of doc.sentences().out(its.span) as unknown as [number, number][]) {
    clause += 1;
    afterNegated = false;
    if (QUESTION_OPENERS.has(String(normals[start] ?? '').replace(/'s$/, ''))) read.question = true;
    // The sentence's first content word, when a determiner, pronoun or number follows it, is the verb of a command
    // ("archive the project", "log 3h of work"), whatever the tagger made of a word it saw without a subject.
    let opening = start;
    while (opening <= end && (FUNCTION_TAGS.has(tags[opening]) || stops[opening])) opening += 1;
    const commands = opening < end && OBJECT_OPENERS.has(tags[opening + 1]) && !read.question;
    for (let at = start; at <= end; at += 1) {
      const tag = tags[at];
      if (CLAUSE_ENDS.has(tag)) clause += 1;
      const type = types[at];
      if (VALUE_TYPES.has(type)) read.givesValue = true;
      if (type !== 'word') continue;
      const token = String(normals[at]);
      const written = ASCII.test(token) ? token : token.normalize('NFKD').replace(ACCENT, '');
      if (/\d/.test(written)) read.givesValue = true;
      if (/\d/.test(written) || !/\p{L}/u.test(written)) continue;
      if (tag === 'PROPN') read.givesValue = true;
      if (FUNCTION_TAGS.has(tag) || stops[at]) continue;
      // A verb followed by a preposition or particle ("look up", "set up", "log in") means what the two say together,
      // which the verb alone does not: it is read as a word of the job, not as the deed a task must name.
      const verb = (tag === 'VERB' || (commands && at === opening)) && tags[at + 1] !== 'ADP';
      // A word joined by hyphens ("on-call", "to-do") is read as its parts.
      const parts = written.split(/[^\p{L}]+/u).filter((part) => part.length > 1 && !isStopWord(part));
      const excluded = negations[at] && !afterNegated;
      afterNegated = negations[at] === true;
      for (const word of parts) {
        if (excluded) {
          read.negated.push(stem(word));
          continue;
        }
        const lemma = parts.length === 1 ? lemmas[at].toLowerCase() : word;
        read.words.push({ word, lemma, stem: stem(lemma), verb, proper: tag === 'PROPN' && !verb, clause });
      }
    }
  }
  return read;
}
