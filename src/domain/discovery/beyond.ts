import type { JobWord } from './text.js';
import { stopWords } from './vocabulary.js';
import { actionVerbs, askers, DESCRIBING, determiners, neutralVerbs, PARTICIPLE, verbIn, WRITINGS } from './words.js';

/**
 * Readings by which a job is about something the catalog does not reach (docs/discovery.md, "Things no task
 * knows"): a price or a state of a thing no task knows, tickets to an event, a booking with someone else, opening
 * hours, the time something happens, a prediction, a company's stock, sharing, the asker's whereabouts, a file the
 * asker holds, a kind of thing no task makes, a thing no task changes. Reading the job (job.ts) calls them where
 * each applies and marks the job elsewhere when one holds.
 */

/** Words asking what a thing costs or is worth, or how it stands. */
const PRICES = new Set(['price', 'prices', 'quote', 'quotes', 'value', 'worth', 'cost', 'rate', 'rates', 'status', 'times', 'timetable', 'schedule', 'score', 'scores']);

/**
 * Whether a word no task knows is what a price or a state is asked of ("bitcoin price", "the price of gold", "my
 * mortgage rate", "flight status", "train times"): the catalog knows no such thing. A describing word is not
 * ("the going rate").
 */
export function pricesUnknown(all: JobWord[], position: number): boolean {
  const word = all[position];
  // Nor a verb ("retrieve rates for CHF"), nor the topic of a writing ("news on the ECB rate decision").
  if (word.literal || DESCRIBING.test(word.word) || verbIn(actionVerbs, word.word) || verbIn(neutralVerbs, word.word)) return false;
  if (all.slice(0, position).some((before) => WRITINGS.has(before.word))) return false;
  return PRICES.has(all[position + 1]?.word ?? '') || (all[position - 1]?.word === 'of' && PRICES.has(all[position - 2]?.word ?? ''));
}

/** Where the object of the verb at `position` starts, past its determiners ("book a vet", "exchange my coins"). */
function pastDeterminers(all: JobWord[], position: number): number {
  let at = position + 1;
  while (all[at] && determiners.has(all[at].word)) at += 1;
  return at;
}

/** The words of a phrase from `from` on, up to a function word, a value or the end of a clause. */
function phraseFrom(all: JobWord[], from: number): JobWord[] {
  const phrase: JobWord[] = [];
  for (let at = from; all[at] && !stopWords.has(all[at].word) && !all[at].literal; at += 1) {
    phrase.push(all[at]);
    if (all[at].ends) break;
  }
  return phrase;
}

/** Trades whose people take bookings: booking a time with one is done with them, not in a calendar. */
const TRADES = new Set(['dentist', 'doctor', 'gp', 'vet', 'plumber', 'electrician', 'hairdresser', 'barber', 'mechanic', 'therapist', 'physio', 'optician', 'lawyer', 'notary', 'dermatologist', 'pediatrician', 'surgeon', 'clinic', 'salon', 'garage', 'groomer', 'tutor']);

/** Words saying when ("on friday", "in the morning"). */
export const WHEN = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tomorrow', 'tonight', 'morning', 'afternoon', 'evening', 'week', 'weekend', 'mon', 'tue', 'wed', 'thu', 'thurs', 'fri', 'sat', 'sun']);

/** Words for admission to an event. */
const TICKETS = new Set(['ticket', 'tickets', 'tix', 'seat', 'seats']);

/**
 * Whether the job asks for tickets or seats to an event ("2 tickets for the Lakers game", "seats for Hamilton on
 * Broadway"): not issue tickets in a repository ("tickets for acme/api"), which a path or an id names.
 */
export function asksTickets(all: JobWord[]): boolean {
  return all.some((word, at) => TICKETS.has(word.word) && (all[at + 1]?.word === 'for' || all[at + 1]?.word === 'to') && !all.slice(at + 2).some((later) => later.literal));
}

/** Verbs booking a time with someone. */
export const BOOKING = new Set(['book', 'schedule', 'reserve', 'arrange']);

/**
 * Whether a booking verb's object is a kind of appointment named by a word no task knows ("book a vet appointment",
 * "a grooming appointment", "a time slot at the recycling centre" is not: "slot" is known), and the job names no
 * place some task knows to put it ("... in my calendar"): the booking is made with someone else.
 */
export function booksWithOthers(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const phrase = phraseFrom(all, pastDeterminers(all, position));
  // "book a roofer", "book a haircut": someone or something no task knows; "a vet appointment": a kind of one;
  // "an appointment with my dentist": with someone whose trade takes bookings.
  const head = phrase.at(-1);
  const unknownKind = !!head && !head.nameLike && (!knows(head) || phrase.slice(0, -1).some((word) => !knows(word) && !word.nameLike));
  if (!unknownKind && !all.some((word) => TRADES.has(word.word))) return false;
  // "on friday" says when, not where.
  const placed = all.some((word, where) => ['in', 'on', 'to', 'into'].includes(word.word) && [all[where + 1], all[where + 2]].some((next) => !!next && !stopWords.has(next.word) && !next.literal && !next.given && !WHEN.has(next.word) && knows(next)));
  return !placed;
}

/** Words after "open" or "closed" saying when: a question about opening hours. */
const OPENING_TIMES = new Set(['now', 'today', 'tonight', 'tomorrow', 'late', 'until', 'till', '24h', '24/7', 'yet', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekends', 'christmas', 'easter']);

/** Whether a yes-or-no question asks if a place is open or closed at some time ("is the pharmacy open on sunday"). */
export function asksOpeningHours(all: JobWord[]): boolean {
  if (!['is', 'are', 'will'].includes(all[0]?.word ?? '')) return false;
  return all.some((word, at) => (word.word === 'open' || word.word === 'closed') && [all[at + 1], all[at + 2]].some((next, offset) => !!next && OPENING_TIMES.has(next.word) && (offset === 0 || ['on', 'at', 'this', 'right'].includes(all[at + 1].word))));
}

/** Whether the job asks at what time something happens: "what time" before does, do or did ("what time does X close"). */
export function asksTimeOfEvent(all: JobWord[]): boolean {
  return all.some((word, at) => (word.word === 'what' || word.word === 'wat') && all[at + 1]?.word === 'time' && ['does', 'do', 'did'].includes(all[at + 2]?.word ?? ''));
}

/** Verbs naming the service they are done on ("tweet" posts on Twitter). */
export const SERVICE_VERBS = new Set(['tweet', 'retweet']);

/** Crypto-assets and words for them. */
const CRYPTO = new Set(['bitcoin', 'bitcoins', 'btc', 'eth', 'ether', 'ethereum', 'crypto', 'cryptocurrency', 'cryptocurrencies', 'dogecoin', 'doge', 'solana', 'usdt', 'usdc', 'tether', 'litecoin', 'xrp', 'cardano']);

/**
 * Whether the job names a crypto-asset no task is named by ("convert 0.5 ETH to euros", "btc to usd"): exchange
 * rates of money do not cover it. Written about, it is a topic ("latest news on bitcoin").
 */
export function namesCrypto(all: JobWord[], names: Set<string>): boolean {
  return all.some((word, at) => CRYPTO.has(word.word) && !names.has(word.stem) && !all.slice(0, at).some((before) => WRITINGS.has(before.word)));
}

/** Words for where someone is, and words that may stand between "my" and one ("my exact GPS location"). */
const WHEREABOUTS = new Set(['location', 'position', 'whereabouts']);
const WHEREABOUTS_DESCRIBED = new Set(['current', 'exact', 'precise', 'gps', 'live', 'present']);

/** Whether the job asks where the asker is: "where am I", "my current location". */
export function asksWhereabouts(all: JobWord[]): boolean {
  return all.some((word, at) => {
    if (word.word === 'where' && all[at + 1]?.word === 'am' && all[at + 2]?.word === 'i') return true;
    if (word.word !== 'my') return false;
    let next = at + 1;
    while (WHEREABOUTS_DESCRIBED.has(all[next]?.word ?? '')) next += 1;
    return WHEREABOUTS.has(all[next]?.word ?? '');
  });
}

/** Words before a file the asker holds, and the files ("this pdf", "the attached document"). */
const HELD = new Set(['this', 'these', 'attached']);
const FILES = new Set(['pdf', 'pdfs', 'file', 'files', 'document', 'documents', 'doc', 'docx', 'image', 'images', 'photo', 'photos', 'picture', 'pictures', 'video', 'audio', 'recording', 'screenshot', 'attachment', 'spreadsheet', 'scan', 'presentation']);
/** Words after a file naming text in it, which a task may work on ("md5 of this file contents"). */
const CONTENTS = new Set(['contents', 'content', 'text', 'string']);

/** Whether the job names a file the asker holds ("summarise this pdf", "the attached document"): no task receives one. */
export function holdsFile(all: JobWord[], knows: (word: JobWord) => boolean): boolean {
  return all.some((word, at) => {
    if (!HELD.has(word.word)) return false;
    // "this scanned PDF", "this YAML file": a participle or a name no task knows may stand before the file.
    const between = all[at + 1];
    const file = between && (PARTICIPLE.test(between.word) || between.nameLike) && !knows(between) && FILES.has(all[at + 2]?.word ?? '') ? at + 2 : at + 1;
    return FILES.has(all[file]?.word ?? '') && !CONTENTS.has(all[file + 1]?.word ?? '');
  });
}

/** Determiners before a kind of thing rather than before words to say. */
const KIND_DETERMINERS = new Set(['a', 'an', 'this', 'that', 'these', 'those']);

/** Determiners before a thing made of one's own: "file my taxes". */
export const OWN_KIND_DETERMINERS = new Set([...KIND_DETERMINERS, 'my', 'our']);

/** Verbs whose object is the thing made or sent: "send an sms", "create a linear issue". */
export const SENDING = new Set(['send', 'create', 'add', 'post', 'make', 'generate', 'insert', 'set']);

/**
 * Whether the thing a sending or creating verb makes is named by a word no task knows, last of its phrase ("send
 * an SMS via Twilio", "send a postcard to grandma", "mail this package"): no task makes such a thing.
 */
export function sendsUnknown(all: JobWord[], position: number, knows: (word: JobWord) => boolean, determiners = KIND_DETERMINERS): boolean {
  // Only a kind of thing ("an SMS", "this package"): without a determiner the words may be what is said ("post
  // deploy done in #eng").
  if (!determiners.has(all[position + 1]?.word ?? '')) return false;
  // The phrase's last word names the thing ("a password reset notice"): numbers and describing words may come first.
  const phrase = phraseFrom(all, position + 2);
  const thing = phrase.at(-1);
  // An acronym no task knows is a kind of thing too ("an SMS").
  return !!thing && !phrase.some((word) => word.nameLike && !word.capitals) && !askers.has(thing.word) && !DESCRIBING.test(thing.word) && !knows(thing);
}

/**
 * Whether the thing a form-changing verb changes is named by a word no task knows, last of its phrase ("exchange my
 * old foreign coins at the bank", "convert the video to mp4"): no task changes such a thing. An amount, a time or a
 * name ("convert 5pm PST to CET", "exchange 500 SEK") is what a task changes.
 */
export function changesUnknown(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const phrase = phraseFrom(all, pastDeterminers(all, position));
  const thing = phrase.at(-1);
  // "convert the text foo bar to base64": text to convert, whatever it says.
  return !!thing && !phrase.some((word) => word.nameLike || word.given || /\p{N}/u.test(word.word) || CONTENTS.has(word.word)) && !DESCRIBING.test(thing.word) && !knows(thing);
}

/** Verbs of telling someone, before "me" or "us" in a standing request ("alert me when ..."). */
const ALERTING = new Set(['alert', 'notify', 'ping', 'email', 'text', 'message', 'warn', 'send']);
/** Words opening the condition of a standing request. */
const WHENEVER = new Set(['when', 'whenever', 'once', 'if']);

/**
 * Whether the job asks to be told when something happens ("alert me when the GBP/USD rate hits 1.35", "email me
 * whenever a news article mentions my company"): a standing watch, which no task keeps; a task answers once.
 */
export function asksStandingWatch(all: JobWord[]): boolean {
  if (all.some((word) => word.word === 'whenever')) return true;
  return all.some((word, at) => ALERTING.has(word.word) && (all[at + 1]?.word === 'me' || all[at + 1]?.word === 'us') && all.slice(at + 2).some((later) => WHENEVER.has(later.word)));
}

/** Words saying a time still to come ("next month", "in the future", "the end of the quarter"). */
const TO_COME = new Set(['next', 'tomorrow', 'future', 'coming', 'end']);

/**
 * Whether the job asks what a price, a rate or a balance will be ("what will the euro to dollar rate be next month",
 * "what will my Stripe balance be at the end of the quarter"): a prediction, which no task makes. A task reads
 * what is, or what was.
 */
export function asksPrediction(all: JobWord[]): boolean {
  if (!all.some((word) => word.word === 'will' || word.word === 'predict')) return false;
  return all.some((word) => PRICES.has(word.word) || word.word === 'balance') && all.some((word) => TO_COME.has(word.word) || (word.given === 'date' && word.stem === 'year'));
}

/** Words that with the next one name a company's stock ("share price", "market cap"). */
const STOCK_PAIRS = new Map([
  ['share', ['price', 'prices']],
  ['stock', ['price', 'prices', 'quote', 'market']],
  ['market', ['cap', 'capitalization', 'capitalisation']],
  ['shares', ['of']],
]);

/** Whether the job asks about a company's stock ("TSLA share price", "Microsoft's market cap"): no task reads markets. */
export function asksStock(all: JobWord[]): boolean {
  return all.some((word, at) => STOCK_PAIRS.get(word.word)?.includes(all[at + 1]?.word ?? '') ?? false);
}

/** Kinds of access given to someone ("edit access"). */
const ACCESS_KINDS = new Set(['edit', 'view', 'read', 'write', 'admin', 'comment', 'full', 'owner']);
/** Who may see a thing, as a thing is made ("make the report public"). */
const VISIBILITY = new Set(['public', 'private']);

/**
 * Whether the job gives someone access to a thing or changes who may see it ("give jim@acme.com edit access to my
 * Drive folder", "make the Q4 report in Drive public"): sharing, which no task does.
 */
export function changesAccess(all: JobWord[]): boolean {
  if (all.some((word, at) => word.word === 'access' && ACCESS_KINDS.has(all[at - 1]?.word ?? ''))) return true;
  const making = all.findIndex((word) => word.word === 'make' || word.word === 'set');
  return making >= 0 && all.slice(making + 2).some((word, at, rest) => VISIBILITY.has(word.word) && (at === rest.length - 1 || !!word.ends || ['with', 'to', 'for', 'so'].includes(rest[at + 1].word)));
}

