import { stemmer } from 'stemmer';

/** Porter stems that would merge unrelated words ("news" would become "new"). */
const STEM_EXCEPTIONS = new Map([['news', 'news']]);

export function stem(word: string): string {
  return STEM_EXCEPTIONS.get(word) ?? stemmer(word);
}

/** Possessive and negative endings ("what's", "don't") carry no meaning for ranking. */
const CONTRACTION = /['’](s|t|re|ll|ve|d|m)(?![\p{L}\p{N}])/giu;
const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u;

const ACCENT = /\p{M}+/gu;

/**
 * Lowercase words of catalog text: prose, dotted ids, snake_case and kebab-case all split into words;
 * accents dropped, so "Pokémon" and "pokemon" are one word.
 */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(ACCENT, '')
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
  /** Written with a capital inside a sentence, or part of a chunk with digits: an argument unless it names a task. */
  nameLike: boolean;
  /** An argument the job gives inline: a calendar date or year, or a clock time ("5pm", "09:00", "noon"). */
  given?: 'date' | 'time';
  /**
   * Of the words of a chunk that is a literal only for its slash ("lat/lon", "eur/usd", "rails/rails"): the
   * chunk's position, so reading the job can tell a pair of known words from a path.
   */
  slashed?: number;
  /** Looks like base64 data ("aGVsbG8=", "SGVsbG8gV29ybGQ="): mixed case and digits, or padded with "=". */
  encoded?: boolean;
  /** Part of a path ("rails/rails", "acme/api"), not a URL: it names a place, such as a repository. */
  path?: boolean;
  /** Part of an e-mail address or a #channel: it names someone or somewhere, not one record. */
  address?: boolean;
  /** The last word of a chunk written as a possessive ("Tom's", "Jane’s"). */
  possessive?: boolean;
  /** Part of a chunk joining words with a hyphen ("web-safe", "7-day"): together they describe what follows. */
  hyphenated?: boolean;
  /** The word "channel" a #channel adds: the job names one channel. */
  channel?: boolean;
  /** The name of a parameter set ("start" of "start=2020-03-01"): a thing, never a verb. */
  parameter?: boolean;
  /** The value of a parameter's setting ("limit=50", "sort=updated"): an argument, naming no record. */
  setting?: boolean;
  /** Written in capitals, two letters or more ("OWM", "NASA"): an acronym. */
  capitals?: boolean;
  /** The last word of a chunk ending in a colon ("step 1:"), a comma ("via Resend,") or a sentence (".", "!", "?"). */
  ends?: ':' | ',' | '.';
  /** The last word of a sentence ending in a question mark. */
  asks?: boolean;
}

/**
 * Quoted text: in double quotes, or in single quotes that are not an apostrophe ("'Inventory' table", not "Tom's");
 * an apostrophe between letters stays inside the quote ("'Mom's birthday dinner'").
 */
const QUOTED = /"[^"]*"|“[^”]*”|‘[^’]*’|(?<![\p{L}\p{N}])'(?:[^']|(?<=\p{L})'(?=\p{L}))+'(?![\p{L}\p{N}])/gu;

/** Whether a job quotes some text: the text is an argument, such as a record's name or a message. */
export function quotes(job: string): boolean {
  return job.normalize('NFKC').search(QUOTED) >= 0;
}
/** A JSON object or array written inline ('{"status":"ok"}', '[1, 2]'): a document to work on. */
const JSON_DOCUMENT = /\{\s*"[^"]*"\s*:|\[\s*[{["\d]/u;

/** A code of two or three capitals in quotes ("'CH'", "\"DEU\""): a code to look up, such as a country's. */
const QUOTED_CODE = /(?<![\p{L}\p{N}])(['"‘“])[A-Z]{2,3}['"’”](?![\p{L}\p{N}])/u;

/** Whether a job gives a code in quotes. */
export function givesCode(job: string): boolean {
  return QUOTED_CODE.test(job.normalize('NFKC'));
}

/** Whether a job gives a JSON document inline. */
export function givesDocument(job: string): boolean {
  return JSON_DOCUMENT.test(job.normalize('NFKC'));
}

/**
 * Time zones by abbreviation ("UTC", "PST", "CET") or IANA name ("America/Chicago"): a job naming one names a
 * time zone, so it reads as that word.
 */
const ZONE_ABBREVIATIONS = new Set([
  'utc', 'gmt', 'pst', 'pdt', 'est', 'edt', 'cst', 'cdt', 'mst', 'mdt', 'akst', 'hst', 'cet', 'cest', 'eet', 'eest',
  'wet', 'west', 'bst', 'ist', 'jst', 'kst', 'hkt', 'sgt', 'aest', 'aedt', 'acst', 'awst', 'nzst', 'nzdt',
]);
const ZONE_NAME = /^(Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Za-z_]+(\/[A-Za-z_]+)?$/u;
/** An ISO 8601 date and time ("2025-06-01T14:00Z"): a moment, which a task converting a time takes. */
const DATE_TIME = /^(19|20)\d\d-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/iu;

/** Digits written with hyphens between them, as ISBNs are ("978-0-7432-7356-5"). */
const DIGITS_AND_HYPHENS = /^[\d-]+[\dXx]$/u;

/** Whether a chunk of digits and hyphens is an ISBN: 13 digits opening 978 or 979, or 10 with a valid check digit. */
function isIsbn(chunk: string): boolean {
  if (!DIGITS_AND_HYPHENS.test(chunk)) return false;
  const digits = chunk.replace(/-/g, '').toUpperCase();
  if (/^97[89]\d{10}$/.test(digits)) return true;
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  const sum = [...digits].reduce((total, digit, at) => total + (digit === 'X' ? 10 : Number(digit)) * (10 - at), 0);
  return sum % 11 === 0;
}

/** A year in a job ("holidays in 2026") says the job is about a year; a calendar date, about a date. */
const YEAR = /^(19|20)\d\d$/;
/** A calendar date: ISO, or as locales write it ("2025/04/03", "03/04/2025", "31.12.2023", "31-12-2023"). */
const DATE = /^((19|20)\d\d-\d\d-\d\d|(19|20)\d\d[./]\d\d?[./]\d\d?|\d\d?([./-])\d\d?\4(19|20)\d\d)$/;
/** An address, a #channel, a URL, a path, an emoji code (":tada:") or a chunk without letters: a value, not a word. */
const LITERAL_CHUNK = /@|^#|:\/\/|[\p{L}\p{N}]\/[\p{L}\p{N}]|^[^\p{L}]*$|^:[\p{L}\p{N}_+-]+:$/u;
/** A path into a document with an index ("data.items[0].name", "items[1].price"): a value, not words. */
const DOCUMENT_PATH = /[\p{L}\p{N}_]\[\d+\]/u;
/** A dotted path ("user.name"), which is one into a document when the job gives one ("{...}"). */
const DOTTED_PATH = /^[\p{Ll}_][\p{L}\p{N}_]*(\.[\p{L}_][\p{L}\p{N}_]*)+$/u;
const SLASHED_WORDS = /^[^\p{L}\p{N}]*\p{L}+(\/\p{L}+)+[^\p{L}\p{N}]*$/u;
const ADDRESS = /^[^\p{L}\p{N}]*#\p{L}|[\p{L}\p{N}]@[\p{L}\p{N}]/u;
const PATH = /^[^:]*[\p{L}\p{N}]\/[\p{L}\p{N}]/u;
/**
 * Base64 as people paste it: mixed case with digits, padded, or (unpadded, without digits: "dGVzdCBtZXNzYWdl") whole
 * groups of four letters with at least three capitals, which words and names seldom are.
 */
const ENCODED = [
  /^(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*[A-Z])(?=[A-Za-z0-9+/]*[0-9])[A-Za-z0-9+/]{8,}={0,2}$/,
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/,
  /^(?=(?:[^A-Z]*[A-Z]){3})(?=[^a-z]*[a-z])(?:[A-Za-z+/]{4}){3,}$/,
];
const SETTING = /^(\p{L}+)=([^=\s]+)$/u;
const ACRONYM = /^[^\p{L}\p{N}]*\p{Lu}{2,}[^\p{L}\p{N}]*$/u;
const HYPHENATED = /[\p{L}\p{N}]-\p{L}/u;
const CHANNEL = /^[^\p{L}\p{N}]*#\p{L}/u;
const EMOJI_CODE = /^[^\p{L}\p{N}:]*:[\p{L}\p{N}_+-]+:[^\p{L}\p{N}]*$/u;
const POSSESSIVE = /\p{L}['’]s[^\p{L}\p{N}]*$/u;
/** "what's", "it's", "there's": a word and "is", not a possessive. */
const CONTRACTIONS = /^[^\p{L}]*(what|whats|that|it|there|here|who|where|how|when|why|he|she|let)['’]s[^\p{L}\p{N}]*$/iu;
const SENTENCE_END = /[.!?:;]$/;
/** Words naming a day of the calendar: a month (not "may", a verb, unless a day number is beside it) or a feast day. */
const CALENDAR_DAYS = new Set([
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'christmas', 'xmas', 'easter', 'halloween', 'thanksgiving',
]);
const DAY_NUMBER = /^([1-9]|[12]\d|3[01])(st|nd|rd|th)?$/;
const CLOCK_TIME = /^(\d{1,2}([:.]\d\d)?(am|pm)|\d{1,2}:\d\d|noon|midnight)$/i;

/** Currency signs and the words for their currencies. */
const CURRENCY_SIGNS: Record<string, string> = { '£': 'pound', '€': 'euro', '$': 'dollar', '¥': 'yen', '₹': 'rupee', '₩': 'won', '₺': 'lira', '₽': 'rouble', '₪': 'shekel', '฿': 'baht' };
const CURRENCY_SIGN = /[£€$¥₹₩₺₽₪฿]/gu;

/**
 * A value read as one word however it is written: a time zone, an ISBN (it reads as the word "isbn": "what book is
 * 978-1-4919-2912-4"), a date and time, a date or a clock time.
 */
function wholeValue(value: string): JobWord | undefined {
  if (ZONE_NAME.test(value) || ZONE_ABBREVIATIONS.has(value.toLowerCase())) return { word: value.toLowerCase(), stem: stem('timezone'), literal: false, nameLike: false };
  if (isIsbn(value)) return { word: value, stem: 'isbn', literal: false, nameLike: false };
  if (DATE_TIME.test(value)) return { word: value.toLowerCase(), stem: value.toLowerCase(), literal: true, nameLike: false, given: 'time' };
  if (DATE.test(value)) return { word: value, stem: 'date', literal: false, nameLike: false, given: 'date' };
  if (CLOCK_TIME.test(value)) return { word: value.toLowerCase(), stem: value.toLowerCase(), literal: true, nameLike: false, given: 'time' };
  return undefined;
}

/** The pause a chunk's last sign makes after the job's last word: a sentence's end, a question's, a colon or a comma. */
function markPause(result: JobWord[], chunk: string): void {
  const pause = chunk.match(/[:,]$|[.!?]$/u)?.[0];
  if (!pause) return;
  result[result.length - 1].ends = /[.!?]/u.test(pause) ? '.' : (pause as ':' | ',');
  if (pause === '?') result[result.length - 1].asks = true;
}

/** The words of a job sentence, in order. */
export function jobWords(job: string): JobWord[] {
  const result: JobWord[] = [];
  const signs: string[] = [];
  let sentenceStart = true;
  // A job written all in capitals ("FREEZE MY CREDIT CARD") is shouted, not a run of names and acronyms.
  const shouted = !/\p{Ll}/u.test(job) && (job.match(/\p{Lu}{2,}/gu)?.length ?? 0) >= 3;
  const chunks = (shouted ? job.toLowerCase() : job).normalize('NFKC').replace(QUOTED, ' . ').split(/\s+/u).filter(Boolean);
  const documentGiven = givesDocument(job);
  for (const [position, chunk] of chunks.entries()) {
    const documentPath = DOCUMENT_PATH.test(chunk) || (documentGiven && DOTTED_PATH.test(chunk));
    const literalChunk = LITERAL_CHUNK.test(chunk) || documentPath;
    const slashed = SLASHED_WORDS.test(chunk) ? { slashed: position } : {};
    // An identifier such as cus_9 or 9am is a name as a whole, not two words; so is a brand written with a capital
    // inside it ("eBay", "iPhone"), even opening a sentence.
    const nameLike = (/^[^\p{L}\p{N}]*\p{Lu}/u.test(chunk) && !sentenceStart) || /\p{N}/u.test(chunk) || /^[^\p{L}\p{N}]*\p{Ll}+\p{Lu}/u.test(chunk);
    // An emoji or other chunk without letters or digits ("🚗 Rent a car") neither ends nor begins a sentence.
    if (/[\p{L}\p{N}]/u.test(chunk)) sentenceStart = SENTENCE_END.test(chunk);
    // "limit=50", "code=JP", "start=2020-03-01": a parameter's name is a word, its value an argument naming no record.
    const setting = chunk.match(SETTING);
    if (setting) {
      result.push({ word: setting[1].toLowerCase(), stem: stem(setting[1].toLowerCase()), literal: false, nameLike: false, parameter: true });
      const value = setting[2].replace(/[^\p{L}\p{N}]+$/u, '');
      result.push(DATE.test(value) ? { word: value, stem: 'date', literal: false, nameLike: false, given: 'date' } : { word: value.toLowerCase(), stem: value.toLowerCase(), literal: true, nameLike: false, setting: true });
      sentenceStart = false;
      continue;
    }
    const date = chunk.replace(/[^\p{L}\p{N}]+$/u, '').replace(/^[^\p{L}\p{N}]+/u, '');
    const whole = wholeValue(date);
    if (whole) {
      result.push(whole);
      markPause(result, chunk);
      continue;
    }
    const inChunk = words(chunk);
    const hyphenated = HYPHENATED.test(chunk) ? { hyphenated: true } : {};
    const capitals = ACRONYM.test(chunk) ? { capitals: true } : {};
    const address = ADDRESS.test(chunk) ? { address: true } : PATH.test(chunk) ? { path: true } : ENCODED.some((pattern) => pattern.test(chunk)) ? { encoded: true } : {};
    for (const word of inChunk) {
      if (YEAR.test(word)) result.push({ word, stem: 'year', literal: false, nameLike: false, given: 'date' });
      else result.push({ word, stem: stem(word), literal: literalChunk || /^\p{N}+$/u.test(word), nameLike, ...slashed, ...address, ...hyphenated, ...capitals });
    }
    if (inChunk.length > 0 && POSSESSIVE.test(chunk) && !CONTRACTIONS.test(chunk)) result[result.length - 1].possessive = true;
    if (!/\p{L}/u.test(chunk)) signs.push(...(chunk.match(CURRENCY_SIGN) ?? []));
    // Base64 data is base64, whatever it says ("what does ZGVwbG95LWtleQ== say").
    if (address.encoded) result.push({ word: 'base64', stem: 'base64', literal: false, nameLike: false, encoded: true });
    // "grab data.items[0].name": a path into a document is a JSONPath, whatever it names.
    if (documentPath) result.push({ word: 'jsonpath', stem: stem('jsonpath'), literal: false, nameLike: false });
    // "#incidents" names a channel and ":tada:" an emoji: the job is about one, whatever its name.
    if (CHANNEL.test(chunk)) result.push({ word: 'channel', stem: stem('channel'), literal: false, nameLike: false, address: true, channel: true });
    const emoji = EMOJI_CODE.test(chunk);
    if (emoji) result.push({ word: 'emoji', stem: stem('emoji'), literal: false, nameLike: false });
    if (inChunk.length > 0 && !emoji) markPause(result, chunk);
  }
  // "£250 in €": a currency's sign, alone or by a number, names the currency; said last, it parts no verb from its
  // object ("issue a $40 stripe refund").
  for (const sign of signs) result.push({ word: CURRENCY_SIGNS[sign], stem: stem(CURRENCY_SIGNS[sign]), literal: false, nameLike: false });
  // "last christmas", "on 3 March", "since january": the job gives a date, and the day number beside a month is part of it.
  result.forEach((word, at) => {
    const besideDay = [result[at - 1], result[at + 1]].filter((other) => other && DAY_NUMBER.test(other.word));
    if (!CALENDAR_DAYS.has(word.word) && !(word.word === 'may' && besideDay.length > 0)) return;
    word.given ??= 'date';
    for (const day of besideDay) day.given ??= 'date';
  });
  return result;
}

/** The chunks of a job that may be identifiers: with a digit or an underscore, an ISBN's hyphens left out. */
export function identifierChunks(job: string): string[] {
  return job
    .split(/\s+/u)
    .map((chunk) => chunk.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, ''))
    .filter((chunk) => /[\p{N}_]/u.test(chunk))
    .map((chunk) => (DIGITS_AND_HYPHENS.test(chunk) ? chunk.replaceAll('-', '') : chunk));
}
