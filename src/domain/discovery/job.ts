import {
  ASKERS, CREATING_VERBS, DETERMINERS, GIVING_VERBS, HOW_TO_FOLLOWERS, IMPLIED_VERBS, MAKING_VERBS, MODIFIERS, NOUN_OPENERS, OPENING_VERBS, PARTICLE_VERBS, POLITE_OPENERS, PREPOSITIONS, SEARCH_VERBS, SEEING_VERBS,
  QUESTION_AUXILIARIES, QUESTION_WORDS, SERVICE_NAMES, TOPIC_MARKERS, WRITING_VERBS, WRITTEN_DEEDS,
} from './lexicon.js';
import { givesCode, givesDocument, identifierChunks, jobWords, quotes, stem, type JobWord } from './text.js';
import { phraseAt, stopWords, type Vocabulary } from './vocabulary.js';
import { asksOpeningHours, asksPrediction, asksTickets, asksStandingWatch, asksStock, asksTimeOfEvent, asksWhereabouts, booksWithOthers, BOOKING, changesAccess, changesUnknown, holdsFile, OWN_KIND_DETERMINERS, namesCrypto, pricesUnknown, SENDING, sendsUnknown, SERVICE_VERBS, WHEN } from './beyond.js';
import { actionVerbs, askers, basesOf, DESCRIBING, determiners, formChangingVerbs, neutralVerbs, openResultVerbs, PARTICIPLE, resultVerbs, verbIn, WRITINGS } from './words.js';

/**
 * Reading a job sentence into the terms discovery weighs (docs/discovery.md, "Action and object words").
 * Each distinct word gets a role: `action` (a verb that changes or transforms something: the task must
 * perform one of them), `object` (what the job is about: the task must match one of them), `neutral` (verbs
 * that only ask to see, or light verbs) and `modifier` (when, which one): these two only help ranking.
 */

export type WordRole = 'action' | 'object' | 'neutral' | 'modifier';

export interface JobTerm {
  /** As written in the job (lower case); a phrase is its words joined by a space. */
  word: string;
  role: WordRole;
  /** Index terms that match it: its own term at weight 1, its synonyms a little less. */
  alternatives: Array<{ term: string; weight: number }>;
  /**
   * Of an action word, the object right after it when that names a deed too ("post a comment", "leave a
   * reply"): a task that changes something and performs it does the job.
   */
  object?: JobTerm;
  /**
   * Of a creating verb ("create", "add"), the last word of the object phrase right after it when some task
   * knows it: the thing to be made ("create a new GitHub repository"), which the task must name.
   */
  thing?: JobTerm;
  /** Said after "about" ("books about the history of Rome"): the topic, an argument more than what the job is. */
  topic?: boolean;
  /**
   * A phrase of the vocabulary opening with "to", "into" or "as" ("to base64", "into base64"): the form a thing is
   * wanted in, which a task's keywords name when it gives that form.
   */
  target?: boolean;
  /** A phrase of function words with no synonym naming a thing ("what is", "who was"): it says how a question is asked more than what about. */
  manner?: boolean;
  /** Known words before a made thing in its phrase ("customer" of "create a customer record"): they may name it too. */
  describers?: JobTerm[];
  /** A thing the job asks for a new one of ("a new private repo", "a fresh Slack channel"): it is to be made. */
  made?: boolean;
  /** A word of a date the job gives ("July", "1990"): an argument, not what the job is about. */
  dated?: boolean;
  /** In a sentence that only sets the scene: it says less about the job than the words of its request. */
  scene?: boolean;
}

export interface Job {
  terms: JobTerm[];
  /** Opens with a question word or a yes-or-no question's verb: only tasks that read can answer it. */
  question: boolean;
  /** A command whose verbs only ask to see ("pull up my latest emails", "show rows in my table"): tasks that read come first. */
  asksToSee: boolean;
  /** Has a verb asking to search ("find", "look for", "search"). */
  searches: boolean;
  /** The object word right after a read verb ("find a plumber"): what the job asks to see. */
  sought?: JobTerm;
  /**
   * Arguments the job gives inline (GIVES_DATE, GIVES_TIME bits), and GIVES_TOPIC when it asks for things
   * about a topic ("news about the olympics"): a task requiring such an input fits it.
   */
  gives: number;
  /**
   * Names, as the owner of what it asks for, a product or service no task is named by ("list my Dropbox
   * files", "Tom's Facebook wall"): the job is about something the catalog does not have.
   */
  elsewhere: boolean;
  /** Carries something that may identify one record: a chunk with digits, a URL, a path, an address, quoted text. */
  identifies: boolean;
  /** Its chunks that may be identifiers ("cus_9s6X", an ISBN without its hyphens), see `identifierChunks`. */
  identifiers: string[];
  /** Stems of what the job asks of a named thing ("capital" of "the capital of Chile"): an answer, not an input. */
  asksOf: string[];
  /** A question in the past about a date given ("what was the weather in Chicago on 4 July 1976"): only a task taking a date answers it. */
  asksPast: boolean;
}

/** What reading a job needs from the index. */
export interface JobContext {
  vocabulary: Vocabulary;
  /** Terms some task has. */
  has(term: string): boolean;
  /** Terms of task ids, titles, keywords, capabilities and provider names: words that name tasks. */
  names: Set<string>;
  /** The same without keywords: terms of task ids, titles, capabilities and provider names. */
  titles: Set<string>;
  /** Terms that name providers ("github", "hacker news") to the providers' numbers. */
  providerNames: Map<string, number[]>;
  /** Terms of the index one typing slip away from `term` ("forcast" for "forecast"), or from `word` as written ("ablity"). */
  similar(term: string, word?: string): string[];
  /** The words naming what a chunk identifies ("customer", "isbn"), by a task's input pattern only identifiers meet. */
  kindsOf(chunk: string): string[];
}

export const GIVES_DATE = 1;
export const GIVES_TIME = 2;
export const GIVES_TOPIC = 4;
export const GIVES_AMOUNT = 8;
export const GIVES_PATH = 16;
export const GIVES_ENCODED = 32;
/** Two dates apart ("from 1 Jan to 31 Mar 2024"): a range, which a task requiring a start and an end date fits. */
export const GIVES_RANGE = 64;
/** A JSON document written inline: a task requiring a document fits it. */
export const GIVES_DOCUMENT = 128;
/** A code of two or three capitals in quotes ("which country is 'CH'"): a task requiring a code fits it. */
export const GIVES_CODE = 256;
/** A #channel ("#incidents"): a task requiring a channel fits it. */
export const GIVES_CHANNEL = 512;
/** A year: a task requiring one answers a question about a date in it. */
export const GIVES_YEAR = 1024;

/** Whether the noun phrase ending at `position` hangs off a preposition ("a ticket in our github repo"), so is not what the job asks for. */
function inPrepositionalPhrase(all: JobWord[], position: number): boolean {
  let at = position;
  while (at >= 0 && (!stopWords.has(all[at].word) || determiners.has(all[at].word))) at -= 1;
  return at >= 0 && topicEnds.has(all[at].word);
}

/** A word naming a thing rather than a deed or a function word: "news" in "news about", not "tell me" or "talking". */
function namesThing(word: JobWord | undefined): boolean {
  return !!word && !word.literal && !stopWords.has(word.word) && !word.word.endsWith('ing') && !verbIn(actionVerbs, word.word) && !verbIn(neutralVerbs, word.word);
}

/** Past forms that do not end in -ed ("got a weird string in a log, ..."). */
const IRREGULAR_PAST = new Set(['got', 'had', 'saw', 'heard']);

/**
 * A past form opening a job tells what happened ("Scanned the barcode on a book, ..."): it asks no deed. Short
 * words ending in -ed are verbs of their own ("shred", "embed").
 */
function toldPast(word: string): boolean {
  return IRREGULAR_PAST.has(word) || (word.length >= 6 && PARTICIPLE.test(word));
}

/** Past participles of deeds that do not end in -ed. */
const IRREGULAR_PARTICIPLES = new Set(['made', 'sent']);

/**
 * A deed's past participle right after a thing the job names ("issues opened this week", "payments made by cus_1",
 * "every customer created this month"): it says which ones are meant, not what to do. After a singular only before
 * when or by whom: otherwise it is more often what happened ("the email bounced", "the yen moved against the dollar").
 * Not after people, who do deeds ("people opened the email").
 */
function describesThingBefore(all: JobWord[], position: number, terms: JobTerm[]): boolean {
  const word = all[position].word;
  const previous = all[position - 1];
  const deed = IRREGULAR_PARTICIPLES.has(word) || (word.endsWith('ed') && basesOf(word, 'ed').some((base) => actionVerbs.has(base) || neutralVerbs.has(base)));
  const plural = /[^s]s$/.test(previous?.word ?? '');
  const thing = terms.at(-1);
  return deed && !!previous && !previous.ends && !GROUPS.has(previous.word) && (plural || DATING.has(all[position + 1]?.word ?? '')) && thing?.role === 'object' && thing.word === previous.word && thing.alternatives.length > 0;
}

/** Words naming the means a job is to be done by ("via WhatsApp", "using Zoom"): a name after one is a service. */
const MEANS = new Set(['via', 'using', 'use', 'through']);

/** Prepositions saying where a thing is ("the contacts in my phone", "the rate on my mortgage"). */
const PLACES = new Set(['in', 'on', 'at', 'inside', 'of']);

/** Words saying whose a thing is ("my Dropbox files"): a name right after one is the owner of what follows. */
const OWNERS = new Set(['my', 'our', 'your', 'their', 'his', 'her']);

/**
 * A name no task is named by, held by its asker or someone ("my Outlook inbox", "Jane's LinkedIn post") and
 * followed by the thing asked for: a product or service, which the job's other words are about.
 */
function namesOtherService(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const [previous, current, next] = [all[position - 1], all[position], all[position + 1]];
  if (!previous || /\p{N}/u.test(current.word) || DEMONYM.test(current.word) || current.given) return false;
  // "our Mumbai team", "my London office": a name before a group of people or a place of work is where they are.
  if (GROUPS.has(next?.word ?? '')) return false;
  // "search Reddit for posts", "search my OneDrive for the budget": where a search verb looks.
  const searcher = OWNERS.has(previous.word) ? all[position - 2] : previous;
  if (searcher && verbIn(searchVerbs, searcher.word) && next?.word === 'for') return true;
  // "sell my bike on eBay": where a deed is done; after a writing, "on" gives its topic ("news on Bitcoin").
  const onService = previous.word === 'on' && !WRITINGS.has(all[position - 2]?.word ?? '') && all.slice(position).every((word) => word.nameLike && !/\p{N}/u.test(word.word));
  if (MEANS.has(previous.word) || onService) return true;
  if (!next) return false;
  return (OWNERS.has(previous.word) || !!previous.possessive) && !current.possessive && (!next.nameLike || (knows(next) && !previous.nameLike)) && !next.literal && !stopWords.has(next.word);
}

/**
 * A name no task is named by between "a" and a thing ("a Jira ticket", "a Zoom meeting", "a Trello card"): it
 * says whose kind of that thing, a product the catalog does not have. Not a chunk with digits ("a v4 uuid", "a
 * 1h block") nor a name of several words ("a New York bagel").
 */
function kindOfThing(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const [previous, current, next] = [all[position - 1], all[position], all[position + 1]];
  return !!previous && !/\p{N}/u.test(current.word) && !DEMONYM.test(current.word) && (previous.word === 'a' || previous.word === 'an') && !!next && !next.literal && !stopWords.has(next.word) && (next.nameLike ? namedKind(all, position + 1, knows) : knows(next));
}

/** "a Microsoft Teams channel": a name of two words before a thing some task knows is a kind of that thing too; "a New York bagel" is not. */
function namedKind(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const after = all[position + 1];
  return !!after && !after.literal && !after.nameLike && !stopWords.has(after.word) && knows(after);
}

/** Common adjectives the endings of DESCRIBING miss ("the big news", "the main stories"). */
const ADJECTIVES = new Set(['big', 'main', 'major', 'important', 'key', 'hot', 'good', 'bad', 'small', 'short', 'long', 'full', 'whole', 'entire', 'complete', 'basic', 'general', 'local', 'global', 'quick', 'fresh', 'old', 'huge', 'great', 'real', 'official', 'exact', 'simple', 'clean', 'plain', 'raw']);

/** Whether a word describes the noun after it: by its ending ("closed", "famous") or as a common adjective ("big"). */
function describes(word: string): boolean {
  return DESCRIBING.test(word) || ADJECTIVES.has(word);
}

/** Groups of people and places of work: a name before one says where it is ("our Mumbai team"). */
const GROUPS = new Set(['team', 'office', 'offices', 'colleagues', 'staff', 'branch', 'crew', 'folks', 'people', 'family', 'friends', 'clients', 'customers', 'site', 'warehouse', 'store', 'headquarters', 'hq']);

/** A word for a people or a place's ("British", "Canadian", "Japanese"): it says where from, not whose product. */
const DEMONYM = /..(ish|ian|ean|ese|ican)$/;

/**
 * Whether "on" after a writing gives its topic, as "about" does ("news on Tesla", "books on Ancient Rome"); not
 * before the asker's thing or a provider's name, where the writing is ("posts on HN", "info on my Google account").
 */
function writtenOn(context: JobContext, all: JobWord[], position: number): boolean {
  const next = all[position + 1];
  if (all[position].word !== 'on' || !WRITINGS.has(all[position - 1]?.word ?? '') || !next) return false;
  return !OWNERS.has(next.word) && !context.providerNames.has(next.stem) && !context.vocabulary.synonyms.get(next.stem)?.some((term) => context.providerNames.has(term));
}

/** Prepositions saying where a deed happens: "in" a service ("the files in dropbox") ... */
const INSIDE = new Set(['in', 'into']);
/** ... and "on" or "to" one after a deed or a thing no task knows ("post this on instagram", "upload the photo to dropbox"). */
const ONTO = new Set(['on', 'onto', 'to']);
/** ... or the means the job is done by ("send an SMS via Twilio", "through WhatsApp", "using Zapier"). */
const BY_MEANS = new Set(['via', 'through', 'using']);

/**
 * Whether a well-known service's name stands where the job is done: after my, our... ("post this on my
 * instagram") or a/an ("schedule an Uber to pick me up"), in it ("list files in dropbox", "post in the discord
 * channel"), or on or to it after a deed or an unknown thing. After a writing or a thing some task knows, "on"
 * and "to" give a topic ("news on bitcoin", "repos related to shopify"): the service is what is read about.
 */
function whereService(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const previous = all[position - 1];
  // A name opening the job as its verb, before its object: "WhatsApp the driver", "uber me home".
  // "venmo jake 20 bucks", "Venmo $25 to Jake": before a word no task knows or an amount, too.
  if (!previous) {
    const next = all[position + 1];
    return !!next && (leadsObject.has(next.word) || /^\p{N}/u.test(next.word) || (!stopWords.has(next.word) && !next.literal && !knows(next)));
  }
  if (OWNERS.has(previous.word) || previous.word === 'a' || previous.word === 'an') return true;
  // "my latest instagram post", "the paypal payment": the service's own thing, after a describing word too.
  const owner = modifiers.has(previous.word) || describes(previous.word) ? all[position - 2] : previous;
  if (owner && OWNERS.has(owner.word)) return true;
  const next = all[position + 1];
  if (previous.word === 'the' && !!next && !next.literal && !stopWords.has(next.word) && knows(next)) return true;
  // "open Jira tickets", "what GitLab issues", "unread Outlook emails": before a plural of a thing some task knows, the
  // service's own things, whatever comes before.
  if (!!next && !next.literal && /[^s]s$/.test(next.word) && knows(next) && !prepositions.has(previous.word)) return true;
  const at = previous.word === 'the' ? position - 2 : position - 1;
  const preposition = all[at]?.word ?? '';
  if (INSIDE.has(preposition) || BY_MEANS.has(preposition)) return true;
  const before = all[at - 1];
  return ONTO.has(preposition) && !!before && !WRITINGS.has(before.word) && (stopWords.has(before.word) || verbIn(actionVerbs, before.word) || !knows(before) || SENT_THINGS.has(before.stem));
}

/** Words before a date that make it a span ("since january", "over 2022", "during March"). */
const SPANNING = new Set(['since', 'over', 'during', 'throughout', 'between']);

/** Words a number after which counts things ("the last 20 messages", "top 10 stories") rather than naming one. */
const COUNTED = new Set(['last', 'first', 'top', 'next', 'latest', 'newest', 'recent', 'past']);

function counts(all: JobWord[], position: number): boolean {
  const next = all[position + 1]?.word ?? '';
  // "the 20 latest", "the 10 highest ranked posts": before such a word or a superlative, too.
  return /^\p{N}+$/u.test(all[position].word) && (COUNTED.has(all[position - 1]?.word ?? '') || COUNTED.has(next) || (next !== 'best' && /^\p{L}{2,}est$/u.test(next)));
}

/** A synonym counts a little less than the job's own word, so exact wording wins a tie. */
export const SYNONYM_WEIGHT = 0.8;
/** A word no task knows may be a typing slip of one that some task does, counted well below the word itself. */
export const FUZZY_WEIGHT = 0.7;
/** A word this long or longer one slip from a known word is taken for that word before a price ("exchnage rates"). */
const SLIP_EXEMPT_LENGTH = 6;
/** Shorter words have too many neighbours one slip away to guess which was meant. */
const FUZZY_MIN_LENGTH = 5;
/** Internal safety cap on distinct job terms scored (a bit each in a 32-bit mask), not a product limit. */
const MAX_JOB_TERMS = 32;

const modifiers = new Set(MODIFIERS);
const questionWords = new Set(QUESTION_WORDS);
const questionAuxiliaries = new Set(QUESTION_AUXILIARIES);
const howToFollowers = new Set(HOW_TO_FOLLOWERS);
const politeOpeners = new Set(POLITE_OPENERS);
const givingVerbs = new Set(GIVING_VERBS);
const makingVerbs = new Set(MAKING_VERBS);
const openingVerbs = new Set(OPENING_VERBS);
const creatingVerbs = new Set(CREATING_VERBS);
const nounOpeners = new Set(NOUN_OPENERS);
const seeingVerbs = new Set(SEEING_VERBS);
const searchVerbs = new Set(SEARCH_VERBS);
/** Words that follow a verb into its object ("adopt a", "unclog the", "sell my"). */
const leadsObject = new Set([...DETERMINERS, ...ASKERS, 'him', 'them']);
const prepositions = new Set(PREPOSITIONS);
/** Prepositions that end a topic ("about the outage from yesterday"); "of" goes on with it ("the history of Rome"). */
const topicEnds = new Set([...PREPOSITIONS, 'to', 'into', 'through'].filter((word) => word !== 'of'));
const topicMarkers = new Set(TOPIC_MARKERS);
const serviceNames = new Set(SERVICE_NAMES);
const writingVerbs = new Set(WRITING_VERBS);
/** Prepositions saying where words are written ("on the PR", "under PR 17", "in #general"). */
const WRITTEN_ON = new Set(['on', 'onto', 'under', 'in', 'into']);
/** A writing verb's place comes within this many words of it ("post thanks! on", "leave a short note on"). */
const WRITING_REACH = 4;

function alternativesOf(context: JobContext, term: string): JobTerm['alternatives'] {
  return [{ term, weight: 1 }, ...(context.vocabulary.synonyms.get(term) ?? []).map((synonym) => ({ term: synonym, weight: SYNONYM_WEIGHT }))].filter(
    (alternative) => context.has(alternative.term),
  );
}

function isQuestion([first, second]: JobWord[]): boolean {
  if (first && questionAuxiliaries.has(first.word)) return second?.word !== 'you';
  if (!first || !questionWords.has(first.word)) return false;
  return first.word !== 'how' || !howToFollowers.has(second?.word ?? '');
}

/**
 * Where a job's clauses part: a comma, a semicolon, a dash, "so" ("I'm travelling tomorrow so how many CAD ..."),
 * or the end of a sentence.
 */
const CLAUSE_BREAK = /[,;—–]\s*|\s+-\s+|\s+so\s+|[.!?]\s+/gu;
/** Question words that may open a relative clause ("an issue, which says ..."), so do not make a question after a comma. */
const RELATIVES = new Set(['which', 'who', 'whom', 'whose']);

/**
 * Whether the job's last clause is a question after clauses that only set the scene ("if it's 3pm in London,
 * what time is that in New York", "I'm walking the dog, how windy is it", "I run a café. Which days are public
 * holidays?"): the job asks to know, as a question does.
 */
function asksAfterContext(text: string): boolean {
  const lastBreak = [...text.matchAll(CLAUSE_BREAK)].filter((found) => text.slice(found.index + found[0].length).trim().length > 0).at(-1);
  if (!lastBreak) return false;
  const last = jobWords(text.slice(lastBreak.index + lastBreak[0].length));
  // "..., where do I start?" asks about the deed the scene names, not about a thing of its own.
  const relative = lastBreak[0].trim() === ',' && RELATIVES.has(last[0]?.word ?? '');
  return !relative && isQuestion(last) && last.some(namesThing);
}

/** Determiners before a thing, after a verb ("flag an abusive comment"). */
const THING_DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'his', 'her', 'their', 'every']);

/** Words of driving, and the words after one that make it a journey ("the drive from Lyon to Milan"). */
const JOURNEYS = /^(drive|drives|driving)$/;
const JOURNEY_ENDS = new Set(['from', 'to', 'between', 'home', 'my', 'me', 'him', 'her', 'them', 'us']);

/** Verbs whose object is a topic to be told about. */
const EXPLAINING = new Set(['explain']);

/**
 * What the job asks of a named thing: "the capital of Chile", "what currency does Thailand use", "Japan's
 * population". The word names the answer wanted; a task taking it as input answers the opposite question.
 */
function askedOf(all: JobWord[]): string[] {
  const named = (word: JobWord | undefined) => !!word && (word.nameLike || word.literal) && !word.given;
  const asked: string[] = [];
  all.forEach((word, at) => {
    if (stopWords.has(word.word) || word.nameLike || word.literal) return;
    const ofName = all[at + 1]?.word === 'of' && (named(all[at + 2]) || (determiners.has(all[at + 2]?.word ?? '') && named(all[at + 3])));
    const doesName = questionWords.has(all[at - 1]?.word ?? '') && ['does', 'do'].includes(all[at + 1]?.word ?? '') && named(all[at + 2]);
    const possessed = named(all[at - 1]) && !!all[at - 1].possessive;
    if (ofName || doesName || possessed) asked.push(word.stem);
  });
  return asked;
}

/** Words for text after a thing, naming it as text to work on ("my password string"). */
const TEXTS = new Set(['string', 'text', 'strings']);

/** Words saying a thing is to be made, after "a": "a new repo", "a fresh channel". */
const NEW = new Set(['new', 'fresh']);

/** Whether the thing at `position` is asked for as a new one ("a new private repo", "a brand new channel", "new slack channel #q4", "make a channel"). */
function madeAt(all: JobWord[], position: number): boolean {
  let at = position - 1;
  while (at >= 0 && !NEW.has(all[at].word) && !stopWords.has(all[at].word) && !all[at].literal && position - at <= 4) at -= 1;
  // "make a private slack channel": what "make" asks for, with no deed of its own, is a new thing.
  if ((all[at]?.word === 'a' || all[at]?.word === 'an') && all[at - 1]?.word === 'make') return true;
  if (at < 0 || !NEW.has(all[at].word)) return false;
  const before = all[at - 1]?.word === 'brand' ? all[at - 2] : all[at - 1];
  // Opening the job, only one thing is new ("new gh repo 'dotfiles'"); new things are recent ones ("new submissions on HN").
  return before?.word === 'a' || before?.word === 'an' || (before === undefined && all[at].word === 'new' && !/[^s]s$/.test(all[position].word));
}

/** Forms too plain to say which task gives them ("into JSON", "to typed text"). */
const PLAIN_FORMS = new Set(['text', 'string', 'json', 'document', 'file']);

/** Whether the word at `position` is in the phrase after "into" or "to" ("into a url-friendly string"). */
function intoAt(all: JobWord[], position: number): boolean {
  let at = position - 1;
  while (at >= 0 && !stopWords.has(all[at].word) && !all[at].literal && position - at <= 3) at -= 1;
  while (at >= 0 && determiners.has(all[at].word)) at -= 1;
  return at >= 0 && (all[at].word === 'into' || all[at].word === 'to');
}

/** Particles that may follow a verb's thing ("turn the volume down"); "in" and "out" there say where. */
const AFTER_THING = new Set(['up', 'down', 'on', 'off', 'back', 'away']);

/** Words ruling out what follows them in their clause ("not channels", "don't add anything", "no hashing"). */
const RULING_OUT = new Set(['not', 'don', 'dont', 'no', 'without', 'skip', 'forget', 'instead']);

/** Whether the word at `position` follows a word ruling it out within its clause. */
function negatedAt(all: JobWord[], position: number): boolean {
  for (let at = position - 1; at >= 0 && position - at <= 4; at -= 1) {
    if (all[at].ends) return false;
    if (RULING_OUT.has(all[at].word)) return true;
  }
  return false;
}

/** Auxiliaries of a question in the past. */
const PAST_AUXILIARIES = new Set(['was', 'were', 'did']);

/** Words ending a label that says who asks ("user asks:", "customer says:", "boss wants:"). */
const SAYING = new Set(['asks', 'asked', 'says', 'said', 'wants', 'writes', 'wrote', 'requests', 'request', 'question', 'prompt', 'needs']);

/** Words after which an opener names a thing, not a deed ("text and author of ..."). */
const NOUN_FOLLOWERS = new Set(['and', 'or', 'of']);

/** A label before a colon ("step 1:", "agent step:", "Resend:") has at most this many words. */
const LABEL_WORDS = 3;

/**
 * Where the command opens: after a label ending in a colon that holds no verb ("step 1: get ...", "agent step:
 * raise ...") and after a preface naming the means ("use Gmail to email ...", "via Resend, mail ..."). Its opening
 * word is read as a command's first word: a verb there is the job's deed.
 */
function commandStart(context: JobContext, all: JobWord[]): number {
  let start = 0;
  const colon = all.findIndex((word) => word.ends === ':');
  // A label is a number, a provider's name or words no task is named by; "new todo: call the bank" names what to make.
  const labels = (word: JobWord) => word.literal || context.providerNames.has(word.stem) || (!context.names.has(word.stem) && !verbIn(actionVerbs, word.word) && !verbIn(neutralVerbs, word.word) && !Object.hasOwn(IMPLIED_VERBS, word.word));
  // "user asks:", "customer says:": what someone said follows, whoever said it.
  if (colon >= 0 && colon < LABEL_WORDS && colon + 1 < all.length && (all.slice(0, colon + 1).every(labels) || SAYING.has(all[colon].word))) start = colon + 1;
  if (MEANS.has(all[start]?.word ?? '')) {
    const end = all.slice(start + 1, start + 1 + LABEL_WORDS).findIndex((word, at) => word.ends === ',' || (word.word === 'to' && at > 0));
    if (end >= 0) start += 1 + end + 1;
  }
  return start < all.length ? start : 0;
}

/** The opening word of a command when it means another verb ("email my boss ...", "tell the team ..."). */
function openerWithImpliedVerb(context: JobContext, all: JobWord[], stems: string[], start: number): { word: JobWord; means: string } | undefined {
  const at = all.findIndex((word, position) => position >= start && !politeOpeners.has(word.word));
  const opener = all[at];
  // "text and author of comment 2921983": before and, or, of or a comma, the opener names a thing.
  // "gmail query ...", "email details": before a read verb or what is known about a thing, too.
  const next = all[at + 1]?.word ?? '';
  if (!opener || askers.has(next) || NOUN_FOLLOWERS.has(next) || neutralVerbs.has(next) || DETAILS.has(next) || opener.ends === ',') return undefined;
  // "email address and avatar": the first word of a phrase names a thing.
  if (phraseAt(context.vocabulary, stems, at)) return undefined;
  if (Object.hasOwn(IMPLIED_VERBS, opener.word)) return { word: opener, means: opener.word };
  // "emails from my bank last month": a plural names the things, it is no verb.
  if (opener.word.endsWith('s')) return undefined;
  // A synonym of a thing sent ("gmail bob@x.com ...", "msg #incidents: ...") opens the command as that thing does;
  // before a thing some task knows it names where such things are ("gmail messages from hr", "gmail msg 18a9").
  const following = all[at + 1];
  if (following && !following.literal && !following.nameLike && !opener.ends && !verbIn(actionVerbs, following.word) && !verbIn(neutralVerbs, following.word) && alternativesOf(context, following.stem).length > 0) return undefined;
  const synonyms = context.vocabulary.synonyms.get(opener.stem) ?? [];
  const means = NOUN_OPENERS.find((noun) => synonyms.includes(stem(noun)));
  return means ? { word: opener, means } : undefined;
}

/** Whether a writing verb's words go on or in a thing: a preposition of place follows it closely, before any other preposition. */
function writesOn(all: JobWord[], position: number): boolean {
  const after = all.slice(position + 1, position + 1 + WRITING_REACH).find((word) => prepositions.has(word.word) || WRITTEN_ON.has(word.word) || word.word === 'to');
  return !!after && WRITTEN_ON.has(after.word);
}

/** Words before a verb that make it the speaker's own story ("I'm seeding a database", "I was out sick this morning"). */
const SPEAKERS = new Set(['i', 'im', 'we', 'am', 'was', 'were', 'is', 'are', 'been', 'out', 'he', 'she', 'they']);

/** Words before a verb's -ing form that say what is going on ("trucks are loading"). */
const PROGRESSIVE = new Set(['is', 'are', 'was', 'were', 'be', 'been']);

/** Words before a verb's -ing form that tell what the asker is doing ("I'm writing", "we are booking"). */
const NARRATING = new Set(['i', 'im', 'we', 'am']);

/** Verbs after which a thing and a past participle say what is wanted done ("wants his flight upgraded"). */
const CAUSATIVES = new Set(['want', 'wants', 'need', 'needs', 'have', 'get', 'got']);
/** Participles naming a thing ("the nation called 'Uruguay'"), not a deed done to it. */
const NAMING = new Set(['called', 'named', 'titled', 'labelled', 'labeled', 'tagged', 'saying']);
/** Words after a participle that date what happened to a thing ("the emails sent yesterday"): it describes them. */
const DATING = new Set(['yesterday', 'today', 'last', 'this', 'since', 'before', 'after', 'on', 'in', 'during', 'recently', 'earlier', 'lately', 'by']);

/** The action verb of a past participle ("closed", "deleted", "archived", "transferred"), when it is one. */
function pastOf(word: string): string | undefined {
  if (!word.endsWith('ed')) return undefined;
  return [...basesOf(word, 'ed'), word.endsWith('ied') ? `${word.slice(0, -3)}y` : ''].find((verb) => verb && actionVerbs.has(verb));
}

/**
 * The deed a past participle says is wanted done: after a causative verb and the thing, with no verb between
 * ("wants our Stripe payout schedule changed", "get our repo transferred"), not followed by a date.
 */
function causedDeed(all: JobWord[], position: number): string | undefined {
  const deed = pastOf(all[position].word);
  if (!deed || NAMING.has(all[position].word) || DATING.has(all[position + 1]?.word ?? '')) return undefined;
  for (let at = position - 2; at >= Math.max(0, position - 8); at -= 1) {
    const word = all[at].word;
    if (CAUSATIVES.has(word)) return deed;
    if (verbIn(actionVerbs, word) || verbIn(neutralVerbs, word) || all[at].ends) return undefined;
  }
  return undefined;
}

/** Times of day after "good" in a greeting. */
const GREETED = new Set(['morning', 'afternoon', 'evening', 'day', 'night']);
/** Verbs of telling: "that" after one opens what is told ("let them know that ...", "tell the team that ..."). */
const TELLING = new Set(['know', 'tell', 'notify', 'inform', 'remind', 'say', 'saying', 'warn', 'announce']);

/** Words before a past participle saying a thing's state ("is now closed", "was deleted"). */
const STATE_AUXILIARIES = new Set(['is', 'are', 'was', 'were', 'been', 'now']);

/**
 * The deed of a past participle saying a thing's outcome at the end of its clause ("confirmation that the issue is
 * now closed.", "the Slack message was deleted"): not one going on into a phrase ("who they are assigned to",
 * "was posted today", "is signed in as").
 */
function outcomeDeed(all: JobWord[], position: number): string | undefined {
  const [previous, next] = [all[position - 1], all[position + 1]];
  if (!previous || !STATE_AUXILIARIES.has(previous.word) || (next && !all[position].ends)) return undefined;
  return NAMING.has(all[position].word) ? undefined : pastOf(all[position].word);
}

/** Words before "open" that make it say a state ("which issues are still open"), not ask to open one. */
const STATING = new Set(['is', 'are', 'still', 'currently', 'remain', 'stay']);

/** Words opening a past span ("last month", "past 7 days", "yesterday"). */
const PAST_SPANS = new Set(['last', 'past', 'previous', 'yesterday']);

/** A word naming a thing that a clause right after it describes ("the stack trace I send you"). */
function describedThing(word: JobWord | undefined): boolean {
  return !!word && !word.ends && !word.literal && !stopWords.has(word.word) && !questionWords.has(word.word);
}

/** Pronouns a verb and its particle may stand around ("set them up", "turn it off"). */
const OBJECT_PRONOUNS = new Set(['it', 'them', 'him', 'her', 'me', 'us']);

/** Things sent or posted: "on" or "to" a service after one says where it goes ("a message on WhatsApp"). */
const SENT_THINGS = new Set(['messag', 'msg', 'text', 'note', 'dm', 'photo', 'pictur', 'video', 'file', 'call', 'meet', 'event']);

/** Words before the form a thing is wanted in ("to base64", "into a slug"). */
const INTO = new Set(['to', 'into', 'as']);

/** Verbs saying someone then can or will do something ("so ops can add it"). */
const MODALS = new Set(['can', 'could', 'will', 'would', 'may', 'might']);

/** Pronouns opening a clause of the asker's own deed ("before I buy it", "after we deploy"). */
const SUBJECTS = new Set(['i', 'we', 'you', 'they']);

/**
 * Words opening a clause of the asker's own deed: "so I can ...", "so that ...", "before I buy it", "after we
 * deploy". ("I" is written capitalised, like a name, and still opens it.)
 */
function ownDeedAt(all: JobWord[], position: number): boolean {
  const [current, next] = [all[position].word, all[position + 1]?.word ?? ''];
  // "so ops can add it": anyone who then can or will do something.
  const then = all[position + 2]?.word ?? '';
  return (current === 'so' && (SUBJECTS.has(next) || next === 'that' || MODALS.has(then))) || ((current === 'before' || current === 'after') && SUBJECTS.has(next));
}

/**
 * A clause after a comma telling what the asker does next with the answer (", I'll import them into Excel later",
 * ", pasting into the sprint wiki"); not what the asker needs (", I need ...", ", I'd like ..."), which is the request,
 * nor what happened (", I got the payload ...", ", we're blocked").
 */
function aftermathAt(all: JobWord[], position: number): boolean {
  const [current, next] = [all[position].word, all[position + 1]?.word];
  return all[position - 1]?.ends === ',' && ((ASKER_SUBJECTS.has(current) && next !== undefined && !stopWords.has(next) && !toldPast(next)) || AFTERMATH.has(current));
}

/** The asker as a subject ("I", "we"). */
const ASKER_SUBJECTS = new Set(['i', 'we']);
/** Words opening a clause of what the asker then does with the answer (", going into the wiki", ", gonna paste it"). */
const AFTERMATH = new Set(['going', 'gonna', 'pasting', 'planning']);

/** Words opening what a caller does with a job's result: "to scan ...", "before calling ...", "so I can ...". */
function purposeAt(all: JobWord[], position: number, knows: (word: JobWord) => boolean): boolean {
  const [current, next, after] = [all[position], all[position + 1], all[position + 2]];
  if (!next || next.literal) return false;
  if (ownDeedAt(all, position)) return true;
  if (next.nameLike) return false;
  // "save a draft in my Gmail without sending it": a deed the job rules out is no part of it.
  if (current.word === 'without' && next.word.endsWith('ing')) return true;
  if ((current.word === 'before' || current.word === 'after') && next.word.endsWith('ing')) return true;
  if (current.word !== 'to') return false;
  if (actionVerbs.has(next.word) || neutralVerbs.has(next.word)) return true;
  // A word no task knows before a determiner or a preposition ("to scan for", "to paste into") is a verb too.
  return !knows(next) && !stopWords.has(next.word) && !!after && (determiners.has(after.word) || prepositions.has(after.word) || after.word === 'into');
}

/** Verbs that, before a service's name or an API, call it: the job is what the call gives. */
const INVOKING = new Set(['call', 'invoke', 'hit']);

/**
 * Whether an invoking verb calls a service: a provider's name or an acronym follows it ("call OWM"; not a person,
 * "call Mom"), or the job names an API or endpoint.
 */
function invokesService(context: JobContext, all: JobWord[], position: number): boolean {
  const next = all[position + 1];
  if (!next) return false;
  if (context.providerNames.has(next.stem) || next.capitals) return true;
  return all.slice(position + 1).some((word) => word.word === 'api' || word.word === 'endpoint');
}

/** Words for the tool a job asks for, which a relative clause then says what it does ("a tool that converts ..."). */
const TOOLS = new Set(['tool', 'tools', 'something', 'function', 'endpoint', 'api', 'service', 'capability', 'task', 'action', 'one', 'anything', 'thing', 'way', 'skill', 'integration', 'method', 'command', 'script', 'bot', 'utility', 'helper']);

/** Words after which a verb's -s form is a verb ("a tool that returns", "something which converts"). */
const RELATIVE_SUBJECTS = new Set(['that', 'which', 'who']);

/** The verb of an -s form after that, which or who ("returns", "lists", "converts"), when it is one of the lists. */
function relativeVerb(all: JobWord[], position: number): string | undefined {
  const word = all[position].word;
  if (!RELATIVE_SUBJECTS.has(all[position - 1]?.word ?? '') || !word.endsWith('s')) return undefined;
  // Only after a tool or a thing unnamed ("a tool that returns", "something which converts"): after a thing some
  // task knows the verb describes it ("every country that pays in euros"), and after a verb of asking "which" asks
  // a question ("asks which moves ...").
  if (!TOOLS.has(all[position - 2]?.word ?? '')) return undefined;
  return [word.slice(0, -1), word.endsWith('es') ? word.slice(0, -2) : ''].find((base) => base && (actionVerbs.has(base) || neutralVerbs.has(base)));
}

/** Words opening what a verb before them finds out ("verify which ...", "confirm whether ..."). */
const FINDING_OUT = new Set(['which', 'whether', 'if', 'who', 'what']);

/** Question words that may stand before a noun ("what book", "which post"). */
const ASKING_WHICH = new Set(['what', 'which', 'whose']);

/** Words naming what is known about a thing: a verb right before one is that thing ("book info", "charge details"). */
const DETAILS = new Set(['info', 'information', 'details', 'detail', 'data', 'metadata', 'count']);

/**
 * Before a verb, a word that leaves it in verb position: a stop word other than a determiner or preposition ("sorted by
 * update"), or an adverb ("permanently delete").
 */
function opensVerb(previous: JobWord | undefined): boolean {
  return !previous || (stopWords.has(previous.word) && !determiners.has(previous.word) && !prepositions.has(previous.word)) || (ADVERB.test(previous.word) && !previous.hyphenated && !modifiers.has(previous.word));
}

/** An adverb of manner ("permanently", "properly"): "-ly" after at least four letters, not in a hyphenated adjective ("beginner-friendly"). */
const ADVERB = /^\p{L}{4,}ly$/u;

/**
 * Only the verb's own form (or its -ing form) is an action or neutral verb (stems would make "general" a
 * "generate"). After a determiner or another content word it is a noun ("the post", "blog post"); in a
 * question it describes rather than asks ("which countries pay with the euro"); "send me" only asks to be given.
 */
function roleOf(word: string, previous: JobWord | undefined, next: JobWord | undefined, question: boolean): WordRole {
  if (verbIn(actionVerbs, word)) {
    // "what book is ...", "which post": after a question word it names a thing.
    if (!opensVerb(previous) || (!!next && DETAILS.has(next.word)) || ASKING_WHICH.has(previous?.word ?? '')) return 'object';
    if (question || (givingVerbs.has(word) && askers.has(next?.word ?? ''))) return 'neutral';
    // "verify which account this token belongs to", "confirm whether it bounced": a verb before what it asks finds out.
    if (FINDING_OUT.has(next?.word ?? '') && !openResultVerbs.has(word)) return 'neutral';
    return 'action';
  }
  // "an issue describing the failing test": a read verb's -ing form after a noun describes that noun.
  if (verbIn(neutralVerbs, word)) return !neutralVerbs.has(word) && !opensVerb(previous) ? 'object' : 'neutral';
  if (modifiers.has(word)) return 'modifier';
  return 'object';
}

/** "open" right before a plural ("open bugs", "open pull requests") describes it: no determiner, an -s soon after. */
function describesPlural(all: JobWord[], position: number): boolean {
  const following = all.slice(position + 1, position + 3);
  return following.length > 0 && !stopWords.has(following[0].word) && !determiners.has(following[0].word) && following.some((word) => word.word.length > 3 && word.word.endsWith('s'));
}

/** The particle making a verb and particle one deed ("turn on", "top up"), when the job has one here. */
function particleAfter(all: JobWord[], position: number, previous: JobWord | undefined, question: boolean): string | undefined {
  const [current, next] = [all[position], all[position + 1]];
  if (question || !next || !opensVerb(previous)) return undefined;
  // "check in Resend whether ...": before a name the particle is a preposition saying where.
  if (all[position + 2]?.nameLike) return undefined;
  return Object.hasOwn(PARTICLE_VERBS, current.word) && PARTICLE_VERBS[current.word].includes(next.word) ? next.word : undefined;
}

/** Words opening a clause that asks after one setting the scene. */
const CLAUSE_ASKS = new Set(['so', 'can', 'could', 'would', 'please', 'pls']);

/**
 * Which words stand in sentences that only set the scene: in a job of several sentences of which some ask (a question,
 * one ending in a question mark, a command opening with its verb, or one asked politely), the others. Their deeds
 * are the asker's story, not the job's.
 */
/** Verbs making a new thing from nothing given ("generate an invoice PDF", "produce a uuid"): what they make is the job's thing. */
const GENERATING = new Set(['generate', 'produce']);

/** Words wishing for something, before "to" and a verb of seeing or knowing ("it'd help to see", "I'd like to know"). */
const WISHING = new Set(['help', 'like', 'love', 'need', 'want', 'wanted', 'appreciate']);

function sceneWords(all: JobWord[], knows: (word: JobWord) => boolean): boolean[] {
  const scene = all.map(() => false);
  // A sentence's end parts them, and so does a comma before "so" or a polite ask ("..., so list all the charges",
  // "..., can you tell me the conditions there?").
  const parts = (word: JobWord, at: number) => word.ends === '.' || (word.ends === ',' && CLAUSE_ASKS.has(all[at + 1]?.word ?? ''));
  const starts = [0, ...all.flatMap((word, at) => (parts(word, at) && at < all.length - 1 ? [at + 1] : []))];
  if (starts.length < 2) return scene;
  const sentences = starts.map((start, at) => all.slice(start, starts[at + 1] ?? all.length));
  const asks = (sentence: JobWord[]) => {
    const opening = sentence.findIndex((word) => !politeOpeners.has(word.word) && word.word !== 'so');
    const first = sentence[opening]?.word ?? '';
    // It must name something of its own: "Could you tell me where I left them?" asks about the scene.
    if (!sentence.some((word) => !word.literal && !stopWords.has(word.word) && !verbIn(actionVerbs, word.word) && !verbIn(neutralVerbs, word.word) && knows(word))) return false;
    return !!sentence.at(-1)?.asks || isQuestion(sentence.slice(opening)) || actionVerbs.has(first) || neutralVerbs.has(first) || sentence.some((word, at) => word.word === 'please' || (word.word === 'you' && ['can', 'could', 'would'].includes(sentence[at - 1]?.word ?? '')));
  };
  // With no sentence asking outright, one wishing to see or know asks ("I write a newsletter. It'd help to see the top stories on HN.").
  const wishesToSee = (sentence: JobWord[]) => sentence.some((word, at) => WISHING.has(word.word) && sentence[at + 1]?.word === 'to' && (seeingVerbs.has(sentence[at + 2]?.word ?? '') || sentence[at + 2]?.word === 'know'));
  let asking = sentences.map(asks);
  if (!asking.includes(true)) asking = sentences.map(wishesToSee);
  if (!asking.includes(true)) return scene;
  sentences.forEach((sentence, at) => {
    if (!asking[at]) for (let position = starts[at]; position < starts[at] + sentence.length; position += 1) scene[position] = true;
  });
  return scene;
}

/**
 * The job's terms. Dropped: stop words, one-letter words, literals (numbers, URLs, e-mail addresses,
 * paths, #channels, quoted text) and names (capitalised inside the sentence, or with digits) that no
 * task is named by: those are the task's input ("Paris", "Marie Curie"), not the job.
 *
 * A word no task knows is kept as missed, never dropped: when it opens a command and a determiner follows
 * ("unclog the sink", "adopt a kitten") it is the job's action, which no task can then perform.
 */
export function readJob(context: JobContext, text: string): Job {
  const all = jobWords(text);
  // A slip of a known word ("coment") is known too.
  const known = new Map<JobWord, boolean>();
  const knows = (word: JobWord) => {
    let found = known.get(word);
    if (found === undefined) {
      found = alternativesOf(context, word.stem).length > 0 || (word.stem.length >= FUZZY_MIN_LENGTH && context.similar(word.stem, word.word).length > 0);
      known.set(word, found);
    }
    return found;
  };
  const scene = sceneWords(all, knows);
  // "lat/lon", "eur/usd": a slash between words the catalog knows means "and", not a path such as rails/rails,
  // nor acme/api when a provider is named acme.
  for (const word of all) {
    if (word.slashed === undefined) continue;
    const pair = all.filter((other) => other.slashed === word.slashed);
    if (pair.every((other) => knows(other) && !context.providerNames.has(other.stem))) for (const other of pair) other.literal = false;
  }
  // "a whatsapp message", "via twilio": a well-known product's name is a name however it is written.
  for (const word of all) if (!word.literal && serviceNames.has(word.word) && !context.names.has(word.stem)) word.nameLike = true;
  const stems = all.map((word) => word.stem);
  // A job naming one of the catalog's providers is done there: another service it names is what it is about.
  const namesProvider = all.some((word) => alternativesOf(context, word.stem).some(({ term }) => context.providerNames.has(term)));
  const searchesHere = all.some((word) => searchVerbs.has(word.word));
  const start = commandStart(context, all);
  const opensQuestion = isQuestion(all.slice(start));
  const afterContext = !opensQuestion && asksAfterContext(text);
  const question = opensQuestion || afterContext;
  const terms: JobTerm[] = [];
  const seen = new Set<string>();
  const add = (key: string, term: JobTerm) => {
    if (seen.has(key) || terms.length === MAX_JOB_TERMS) return;
    seen.add(key);
    terms.push(term);
  };
  const opensWith = question ? undefined : openerWithImpliedVerb(context, all, stems, start);
  // "we're mid-incident, pls drop a note in #status": a later clause may open the command instead.
  const clauses = all.flatMap((word, at) => (word.ends === ',' && at >= start ? [at + 1] : []));
  // There the opener needs an object after it ("drop a note", "email sarah@x.com: ..."), not one ending a field of a
  // list ("new customer in Stripe, email rahul@x.in, phone ...").
  const takesObjectAfter = ({ word }: { word: JobWord }) => {
    let at = all.indexOf(word) + 1;
    if (leadsObject.has(all[at]?.word ?? '')) return true;
    // An address is written as several words ("rahul.v@example.in"): its last one says how it ends.
    while (all[at]?.address && all[at + 1]?.address && !all[at].ends) at += 1;
    return !!all[at]?.address && all[at].ends !== ',';
  };
  const implied = opensWith ?? (question ? undefined : clauses.map((at) => openerWithImpliedVerb(context, all, stems, at)).find((found) => found !== undefined && takesObjectAfter(found)));
  const opener = implied?.word;
  /** Before the first content word of a command that opens with no verb it implies. */
  let opening = !opensWith;
  /** The verb whose object may come next: only determiners, pronouns and modifiers stand between them. */
  let verb: JobTerm | undefined;
  let sought: JobTerm | undefined;
  /** After "about" and before the next preposition but "of": the words name the job's topic. */
  let inTopic = false;
  /** Whether the topic follows a thing ("news about", "books about"), not a verb ("tell me about"): the job searches for it. */
  let topicOfThing = false;
  let searchesTopic = false;
  let elsewhere = false;
  /** "open bugs in acme/widgets": things described as open are things to see. */
  let listsOpen = false;
  /** A creating verb whose object phrase is being read, and the position right after the phrase's last word. */
  let creating: { verb: JobTerm; end: number } | undefined;
  /** Whether the word after `position` is a thing some task knows ("closed issues", "the authenticated Google user"). */
  const describesNext = (position: number) => {
    const next = all[position + 1];
    return !!next && !next.literal && !stopWords.has(next.word) && knows(next);
  };
  /**
   * Whether the words after an opening word no task knows are its object: a determiner or pronoun ("unclog the
   * sink"), a provider's name ("upvote hn story 123"), or a word no task knows before a preposition ("kick bob from").
   */
  const takesObject = (position: number) => {
    const [next, after] = [all[position + 1], all[position + 2]];
    // "Dear assistant, a colleague asked ...": before a comma it is a word of address, not a verb.
    if (!next || all[position].ends) return false;
    if (leadsObject.has(next.word)) return true;
    // Only the command's very first word is read as its verb this way.
    if (position !== all.findIndex((word, at) => at >= start && !politeOpeners.has(word.word)) || next.literal) return false;
    // "clear all my unread notifications": "all" before a determiner or an owner leads the object too.
    if (next.word === 'all' && !!after && (leadsObject.has(after.word) || OWNERS.has(after.word))) return true;
    if (alternativesOf(context, next.stem).some(({ term }) => context.providerNames.has(term))) return true;
    return !stopWords.has(next.word) && !knows(next) && !!after && prepositions.has(after.word);
  };
  /** The position right after a describing word that was not what a read verb seeks ("trending" in "trending javascript repos"). */
  let describing = -1;
  const place = (key: string, term: JobTerm, from: number, to = from + 1) => {
    if (scene[from] && (term.role === 'action' || term.role === 'neutral')) {
      verb = undefined;
      creating = undefined;
      return;
    }
    if (scene[from]) term.scene = true;
    if (inTopic) {
      term.topic = true;
      if (topicOfThing) searchesTopic = true;
    }
    add(key, term);
    opening = false;
    if (creating && term.role === 'object') {
      // The phrase opens right after the verb (past determiners and modifiers) and goes on while its words
      // follow one another; a word no task knows, a participle or a word of when ends it ("a channel called
      // #launch", "add dentist appointment Thursday 3pm").
      const goesOn = creating.end < 0 ? verb === creating.verb : from === creating.end;
      if (goesOn && term.alternatives.length > 0 && !PARTICIPLE.test(term.word) && !WHEN.has(term.word)) {
        // "a customer record": the words before the thing say what kind of it is made; not a product's name ("a Gmail
        // draft") nor a verb's form ("a sending domain").
        const before = creating.verb.thing;
        if (before && !DESCRIBING.test(before.word) && !all[from - 1]?.nameLike) term.describers = [...(before.describers ?? []), before];
        creating.verb.thing = term;
        creating.end = to;
      } else if (goesOn && term.alternatives.length === 0 && !all[from].possessive && describesNext(from)) {
        // "a brand new GitHub repository": a word no task knows before a known one describes it.
        creating.end = to;
      } else creating = undefined;
    } else if (term.role === 'modifier') {
      if (creating && creating.end === from) creating.end = to;
    } else creating = undefined;
    if (term.role === 'action' && (verbIn(creatingVerbs, term.word) || GENERATING.has(term.word))) creating = { verb: term, end: -1 };
    if (term.role === 'neutral' || term.role === 'action') verb = term;
    else if (term.role === 'object' && verb) {
      // A participle no task knows describing the next word ("closed issues") is not what is sought: that word is.
      // So is a word of a hyphenated chunk before a known thing ("a web-safe permalink"), and a describing word some
      // task knows before any other word ("driving directions" are not Google Drive's).
      // After one describing word, a word no task knows before a known thing describes it too ("trending javascript repos").
      const described = describing === from;
      describing = -1;
      if (verb.role === 'neutral' && (term.alternatives.length === 0 ? (describes(term.word) || all[from].hyphenated || described || namesProvider) && (describesNext(from) || (!!all[from].hyphenated && !!all[from + 1]?.hyphenated)) : DESCRIBING.test(term.word) && !!all[from + 1] && !all[from + 1].literal && !stopWords.has(all[from + 1].word))) {
        describing = to;
        return;
      }
      // "list Stripe subscriptions": a provider's name before the thing sought says where it is, not what.
      const next = all[to];
      if (verb.role === 'neutral' && !sought && term.alternatives.some(({ term: key }) => context.providerNames.has(key)) && !all[to - 1].ends && !!next && !next.literal && !stopWords.has(next.word) && !modifiers.has(next.word)) return;
      // A verb opening a command that only says the deed ("shoot a welcome email") asks to see nothing.
      if (verb.role === 'neutral' && verbIn(neutralVerbs, verb.word) && !term.topic) sought ??= term;
      else if (verbIn(actionVerbs, term.word) && verbIn(makingVerbs, verb.word)) verb.object ??= term;
      // A provider's name before a making verb's object says whose ("issue a stripe refund"): the deed may follow.
      const whose = term.alternatives.some(({ term: key }) => context.providerNames.has(key));
      if (!(verb.role === 'action' && !verb.object && verbIn(makingVerbs, verb.word) && whose)) verb = undefined;
    }
  };
  /** Where the job's last sentence starts: earlier sentences may only set the scene. */
  const lastSentence = all.findLastIndex((word, at) => word.ends === '.' && at < all.length - 1) + 1;
  const providerOpens = !!all[start] && alternativesOf(context, all[start].stem).some(({ term }) => context.providerNames.has(term));
  /** Whether the word at `at` opens the command or a later sentence. */
  const sentenceOpens = (at: number) => at === start || all[at - 1]?.ends === '.';
  /** Writing verbs putting words on or in a thing. */
  const writing: JobTerm[] = [];
  if (implied) {
    place(`verb ${implied.word.word}`, { word: implied.word.word, role: 'action', alternatives: alternativesOf(context, stem(IMPLIED_VERBS[implied.means])) }, -1);
    // "mail this package to my sister": a verb a noun implies sends or makes a thing as that verb does.
    // "file my taxes": a thing filed or raised may be the asker's own; one sent to someone is not ("email my boss").
    if (SENDING.has(IMPLIED_VERBS[implied.means]) && sendsUnknown(all, all.indexOf(implied.word), knows, IMPLIED_VERBS[implied.means] === 'create' ? OWN_KIND_DETERMINERS : undefined)) elsewhere = true;
    // "tweet the release notes": a verb naming its service posts there, unless the job names a catalog provider.
    if (SERVICE_VERBS.has(implied.word.word) && !namesProvider) elsewhere = true;
  }
  // Who asks ("user asks:") is no part of the job; another label may be ("OWM geocoding:", "Drive query:").
  const from = start > 0 && SAYING.has(all[start - 1].word) ? start : 0;
  for (let position = from; position < all.length; position += 1) {
    const current = all[position];
    // "file a bug in acme/web: login button does nothing on Safari": after a command and a colon comes its content.
    if (position > start && all[position - 1].ends === ':' && terms.some((term) => term.role === 'action')) break;
    // "Before I plan tomorrow's commute, can you give me the forecast": a clause of the asker's own deed before a
    // comma leads into the request; it is passed over.
    const leadIn = !question && ownDeedAt(all, position) ? all.findIndex((word, at) => at > position && word.ends === ',') : -1;
    if (leadIn > 0 && leadIn < all.length - 1) {
      position = leadIn;
      continue;
    }
    // "get the 20 latest HN submissions to scan for mentions of our product", "... before calling the weather API":
    // after a command and its object, what the caller does next is no part of the job. A clause of the asker's own
    // deed ends it once it has said what it is about ("the title of 978-1-4028-9462-6 before I buy it").
    const ownClause = ownDeedAt(all, position) || aftermathAt(all, position);
    if (!question && (purposeAt(all, position, knows) || ownClause) && terms.some((term, at) => (term.role === 'neutral' || term.role === 'action' || ownClause) && terms.slice(at).some((other) => other.role === 'object'))) break;
    // A request after sentences setting the scene opens as a command does.
    if ((position === start && start > 0) || (scene[position - 1] && !scene[position])) {
      // What a label or preface said is no verb's object, and the command's first word opens it.
      opening = !opensWith;
      verb = undefined;
      creating = undefined;
    }
    /** The word before, within the command: the command's first word has none. */
    const previous = position === start || all[position - 1]?.ends === '.' ? undefined : all[position - 1];
    if (stopWords.has(current.word) && !leadsObject.has(current.word)) verb = undefined;
    if (topicMarkers.has(current.word) || writtenOn(context, all, position)) {
      inTopic = true;
      topicOfThing = namesThing(all[position - 1]) && !inPrepositionalPhrase(all, position - 1);
    } else if (topicEnds.has(current.word)) inTopic = false;
    // "explain black holes": what is explained is a topic, as after "tell me about".
    else if (EXPLAINING.has(all[position - 1]?.word ?? '') && !question) {
      inTopic = true;
      topicOfThing = false;
    }
    const particle = particleAfter(all, position, previous, question);
    if (particle) {
      const key = `${current.stem} ${stem(particle)}`;
      place(key, { word: `${current.word} ${particle}`, role: 'action', alternatives: alternativesOf(context, key) }, position, position + 2);
      position += 1;
      continue;
    }
    // "set them up", "sign me up": a verb and its particle with a pronoun between them are one deed.
    // "turn the volume down", "turn the heating up": a verb and its particle around a thing are one deed too.
    const aroundThing = !question && opensVerb(previous) && Object.hasOwn(PARTICLE_VERBS, current.word) && determiners.has(all[position + 1]?.word ?? '') && !!all[position + 2] && !stopWords.has(all[position + 2].word) && PARTICLE_VERBS[current.word].includes(all[position + 3]?.word ?? '') && AFTER_THING.has(all[position + 3].word) ? all[position + 3].word : undefined;
    if (aroundThing) {
      const key = `${current.stem} ${stem(aroundThing)}`;
      place(key, { word: `${current.word} ${aroundThing}`, role: 'action', alternatives: alternativesOf(context, key) }, position);
      continue;
    }
    const parted = OBJECT_PRONOUNS.has(all[position + 1]?.word ?? '') && !question && opensVerb(previous) ? phraseAt(context.vocabulary, [current.stem, all[position + 2]?.stem ?? ''], 0) : undefined;
    if (parted?.length === 2) {
      const key = parted.join(' ');
      place(key, { word: `${current.word} ${all[position + 2].word}`, role: 'action', alternatives: alternativesOf(context, key) }, position, position + 3);
      position += 2;
      continue;
    }
    const phrase = phraseAt(context.vocabulary, stems, position);
    // "..., can you give me the forecast": opening a clause, "can you" only asks politely.
    if (phrase && current.word === 'can' && (!previous || !!previous.ends || politeOpeners.has(previous.word))) {
      position += phrase.length - 1;
      continue;
    }
    if (phrase) {
      const words = all.slice(position, position + phrase.length).map((word) => word.word);
      const alternatives = alternativesOf(context, phrase.join(' '));
      // "at the moment", "later today": a phrase meaning a modifier ("now", "tomorrow") is one.
      const role = roleOf(words[0], previous, all[position + phrase.length], question) === 'action' ? 'action' : alternatives.some(({ term }) => modifiers.has(term)) ? 'modifier' : 'object';
      // Function words meaning a thing ("can you" = supported, "who am i" = account) are no manner of asking.
      const manner = (words.every((word) => stopWords.has(word)) && (context.vocabulary.synonyms.get(phrase.join(' ')) ?? []).every((synonym) => synonym.includes(' '))) || undefined;
      const target = INTO.has(words[0]) || undefined;
      const made = (role === 'object' && madeAt(all, position)) || undefined;
      place(phrase.join(' '), { word: words.join(' '), role, alternatives, manner, target, made }, position, position + phrase.length);
      position += phrase.length - 1;
      continue;
    }
    // "open a new issue in acme/webapp titled Login button broken on Safari": after the thing, its name.
    if (NAMING.has(current.word) && terms.some((term) => term.role === 'action' || term.role === 'neutral') && terms.at(-1)?.role === 'object' && !all[position + 1]?.literal) break;
    // "let everyone know that the office will close early": after a verb of telling and "that" comes what is told.
    if (current.word === 'that' && all.slice(Math.max(0, position - 3), position).some((word) => TELLING.has(word.word)) && terms.length > 0) break;
    // "let #office know the coffee machine is fixed": after "let ... know" comes what is told, with or without "that".
    if (all[position - 1]?.word === 'know' && all.slice(Math.max(0, position - 4), position - 1).some((word) => word.word === 'let') && terms.length > 0 && !all.slice(position).some((word) => word.ends === ':')) break;
    // "list slack workspace members, not channels", "skip the forecast, ...": what is ruled out is no part of the job.
    if (negatedAt(all, position)) continue;
    if (current.literal || stopWords.has(current.word) || current.word.length === 1) continue;
    // "New York", "New Delhi": a capitalised word of time before a name no task knows is part of the name.
    if (current.nameLike && modifiers.has(current.word) && !!all[position + 1]?.nameLike && !knows(all[position + 1])) continue;
    // "Good evening.", "good morning team": a greeting.
    if (current.word === 'good' && GREETED.has(all[position + 1]?.word ?? '')) {
      position += 1;
      continue;
    }
    // "I'm writing a travel piece, ...", "we're booking an invoice and ...", "the stack trace I send you": what the
    // asker is doing sets the scene or says what a thing is.
    const narrated = verbIn(actionVerbs, current.word) || (verbIn(neutralVerbs, current.word) && !verbIn(seeingVerbs, current.word));
    if (NARRATING.has(previous?.word ?? '') && narrated && (current.word.endsWith('ing') || describedThing(all[position - 2]))) continue;
    // "trucks are loading outdoors", "..., adding it to our shop inventory": what is going on, or what the asker does
    // with the answer, said by a verb's -ing form after "is"/"are" or opening a clause after the request.
    const going = PROGRESSIVE.has(previous?.word ?? '') ? verbIn(actionVerbs, current.word) || verbIn(neutralVerbs, current.word) : !!previous?.ends && terms.some((term) => term.role === 'object') && narrated;
    if (current.word.endsWith('ing') && going) continue;
    // "my repos" asks for the asker's own (a task titled "List my GitHub repositories"); "the issues in my repo" only says where.
    if (current.word === 'my' && inPrepositionalPhrase(all, position)) continue;
    // "open bugs", "open pull requests": describing what is listed, not asking to open (create) one.
    if (current.word === 'open' && (describesPlural(all, position) || STATING.has(previous?.word ?? ''))) {
      listsOpen = true;
      continue;
    }
    // "the drive from Lyon to Milan", "driving directions": a journey by road, not a drive where files are kept.
    let alternatives = JOURNEYS.test(current.word) && (JOURNEY_ENDS.has(all[position + 1]?.word ?? '') || current.word.startsWith('driving')) ? [] : alternativesOf(context, current.stem);
    // Not a slip of a long known word ("exchnage rates"); a short word one letter from another is itself ("heart", "heat").
    if (alternatives.length === 0 && pricesUnknown(all, position) && (current.stem.length < SLIP_EXEMPT_LENGTH || context.similar(current.stem).length === 0)) elsewhere = true;
    if (current.nameLike && !alternatives.some((alternative) => context.names.has(alternative.term))) {
      // The topic of a thing is what the job reads about ("news about an Amazon warehouse strike"), not where it is done.
      // In a job naming a catalog provider, a name its asker holds is a record's ("our Tasks table on airtable").
      // Nor what a search on a catalog provider looks for ("search GitHub for a JavaScript markdown parser"), nor
      // a name in a sentence setting the scene ("We're driving through Salt Lake City, can you ...").
      if (!(inTopic && topicOfThing) && !(namesProvider && searchesHere) && !scene[position]) elsewhere ||= (!(namesProvider && OWNERS.has(all[position - 1]?.word ?? '')) && namesOtherService(all, position, knows)) || kindOfThing(all, position, knows) || (serviceNames.has(current.word) && !namesProvider && whereService(all, position, knows));
      continue;
    }
    // "my Outlook inbox": a name a task has only among its keywords, as a common word, is held as a product's name.
    const owned = OWNERS.has(all[position - 1]?.word ?? '');
    if (current.nameLike && !context.titles.has(current.stem) && owned && !namesProvider) elsewhere ||= namesOtherService(all, position, knows);
    // "my laptop's time zone": the thing asked about belongs to something no task knows.
    // Not someone whose thing speaks ("my kid's school list says ISBN ...").
    // Not the topic of what is written ("an email to the school about my son's absence").
    // Nor a sentence setting the scene ("My brother's living in Honolulu. What time is it there?").
    if (alternatives.length === 0 && current.possessive && owned && !namesProvider && !inTopic && !scene[position] && !all.slice(position + 1, position + 4).some((word) => SAYING.has(word.word))) elsewhere = true;
    if (alternatives.length === 0 && current.stem.length >= FUZZY_MIN_LENGTH && !inTopic) alternatives = context.similar(current.stem, current.word).map((term) => ({ term, weight: FUZZY_WEIGHT }));
    // "what's my heart rate", "file my tax return": the asker's own thing of a kind no task knows, named as what the
    // job is about (not where it looks, "for my config file"), is kept somewhere the catalog does not reach.
    // Not someone who speaks ("my grandson says ..."), nor a sentence setting the scene before the request.
    if (alternatives.length === 0 && owned && !current.nameLike && !namesProvider && !DESCRIBING.test(current.word) && describesNext(position) && !modifiers.has(all[position + 1].word) && !SAYING.has(all[position + 1].word) && !TEXTS.has(all[position + 1].word) && !inPrepositionalPhrase(all, position) && position >= lastSentence && !scene[position]) elsewhere = true;
    // "the interest rate on my mortgage", "the contacts in my phone": where the job looks is a thing no task knows.
    if (alternatives.length === 0 && owned && PLACES.has(all[position - 2]?.word ?? '') && !scene[position]) elsewhere = true;
    // A verb opening a command that means another verb ("raise a ticket", "ping the team") says only the deed.
    // "a tool that returns the weather", "something which converts currencies": after that, which or who, a verb's -s form is the verb.
    const base = question ? undefined : relativeVerb(all, position);
    if (base) {
      place(current.stem, { word: base, role: actionVerbs.has(base) ? 'action' : 'neutral', alternatives }, position);
      continue;
    }
    // "its region and calling code", "a reading list": inside a job, a verb's -ing form before a known thing describes it.
    const describingThing = position > start && current.word.endsWith('ing') && !neutralVerbs.has(current.word) && describesNext(position);
    // "github merge pull request 88", "gh issue edit 42", "stripe invoices create ...": after a provider's name
    // opening the job, as on a command line, a verb among its next two words is the deed.
    const commandLine = position - start <= 2 && position > start && providerOpens && verbIn(actionVerbs, current.word) && !describesPlural(all, position);
    // "My boss wants his flight upgraded to business class", "have @mark removed from Slack": the deed said as what
    // someone wants done; "Output: confirmation that the issue is now closed.": the deed said as its outcome.
    const caused = question ? undefined : causedDeed(all, position) ?? outcomeDeed(all, position);
    if (caused) {
      place(current.stem, { word: caused, role: 'action', alternatives: alternativesOf(context, stem(caused)) }, position);
      continue;
    }
    // The topic of a thing names what to look for: "news about the chip export restrictions" asks to export nothing.
    let role = commandLine ? 'action' : current.parameter || (inTopic && topicOfThing) || describingThing ? 'object' : current === opener && !nounOpeners.has(implied!.means) ? 'neutral' : roleOf(current.word, previous, all[position + 1], question);
    if (opening && !question && role === 'object' && alternatives.length === 0 && !current.nameLike && !toldPast(current.word) && !SPEAKERS.has(all[position - 1]?.word ?? '') && takesObject(position)) role = 'action';
    if (opening && !question && openingVerbs.has(current.word) && leadsObject.has(all[position + 1]?.word ?? '')) role = 'action';
    // "flag an abusive comment": a known word that is no verb, opening the command before a determiner, is its verb.
    if (opening && !question && role === 'object' && alternatives.length > 0 && !alternatives.some(({ term: key }) => context.titles.has(key)) && !current.nameLike && !current.literal && THING_DETERMINERS.has(all[position + 1]?.word ?? '') && !all[position].ends && position === all.findIndex((word, at) => at >= start && !politeOpeners.has(word.word))) role = 'action';
    // "squash-merge pull request 7", "force-push main": a deed opening the job after a word joined to it by a hyphen;
    // before a result verb that word names the result ("URL-encode", "hex-encode"), which the verb gives.
    if (!question && sentenceOpens(position - 1) && previous?.hyphenated && verbIn(actionVerbs, current.word) && !resultVerbs.has(current.word)) role = 'action';
    // "bulk delete all spam comments": a word no task knows opening a sentence before a deed and its object describes the deed.
    if (!question && sentenceOpens(position - 1) && previous && !previous.hyphenated && !knows(previous) && !previous.nameLike && !previous.literal && !stopWords.has(previous.word) && verbIn(actionVerbs, current.word) && (leadsObject.has(all[position + 1]?.word ?? '') || all[position + 1]?.word === 'all')) role = 'action';
    // "open a savings account", "open a new ticket": opening one of a kind makes it; catching one ("catch a Mewtwo")
    // is a deed too.
    if (!question && (current.word === 'open' || current.word === 'catch') && ['a', 'an'].includes(all[position + 1]?.word ?? '')) role = 'action';
    // "their scores and comment counts": in a list of things, a verb before a known thing names one too.
    if (role === 'action' && (previous?.word === 'and' || previous?.word === 'or') && terms.at(-1)?.role === 'object' && describesNext(position) && !leadsObject.has(all[position + 1].word)) role = 'object';
    // "call OWM for the week's predictions", "invoke the weather API": calling a service or an API asks for what it gives.
    if (role === 'action' && INVOKING.has(current.word) && invokesService(context, all, position)) role = 'neutral';
    // "issues opened this week", "payments made by cus_1": a past participle right after a thing says which ones, no deed.
    if (role === 'object' && describesThingBefore(all, position, terms)) continue;
    const term: JobTerm = { word: current.word, role, alternatives, dated: current.given === 'date' || undefined, made: (role === 'object' && madeAt(all, position)) || undefined };
    // "convert ... into a url-friendly string": after a form-changing verb, what it is turned into names the form.
    if (role === 'object' && !PLAIN_FORMS.has(current.word) && intoAt(all, position) && terms.some((other) => other.role === 'action' && formChangingVerbs.has(other.word))) term.target = true;
    // A light verb of writing ("leave a review note on PR #88") is the deed when its words go on a thing.
    if ((role === 'action' || (role === 'neutral' && !question)) && writingVerbs.has(current.word) && writesOn(all, position)) {
      term.role = 'action';
      writing.push(term);
    }
    if (term.role === 'action' && SENDING.has(current.word) && sendsUnknown(all, position, knows)) elsewhere = true;
    if (term.role === 'action' && formChangingVerbs.has(current.word) && changesUnknown(all, position, knows)) elsewhere = true;
    if (term.role === 'action' && BOOKING.has(current.word) && booksWithOthers(all, position, knows)) elsewhere = true;
    place(current.stem, term, position);
  }
  // "what's on file for cus_9s6X": an identifier of a kind names that kind of thing.
  const identifiers = identifierChunks(text);
  for (const word of identifiers.flatMap((chunk) => context.kindsOf(chunk))) {
    const alternatives = alternativesOf(context, stem(word));
    if (alternatives.length > 0) add(stem(word), { word, role: 'object', alternatives });
  }
  // "write in #general", "post thanks! on github issue 99": words written on or in a thing post or comment there,
  // unless the verb's object names its deed ("post a comment").
  for (const term of writing) term.object ??= { word: term.word, role: 'action', alternatives: WRITTEN_DEEDS.flatMap((deed) => alternativesOf(context, stem(deed))) };
  const given = all.reduce((bits, word) => bits | (word.given === 'date' ? GIVES_DATE : word.given === 'time' ? GIVES_TIME : 0), 0);
  // Words of one date stand together ("January 2nd 2019"); a second run of them is a second date.
  const dates = all.filter((word, at) => word.given === 'date' && all[at - 1]?.given !== 'date').length;
  // "since january", "over 2022": one date saying where a span starts or what it covers.
  const span = all.some((word, at) => word.given === 'date' && SPANNING.has(all[at - 1]?.word ?? ''));
  // A number that is not a date, a clock time or a count ("72 F", "$20", "1.2M") is an amount to work on.
  const amount = all.some((word, at) => !word.given && !word.address && !word.setting && !counts(all, at) && /^\p{N}/u.test(word.word));
  // A path left a literal ("rails/rails", not "lat/lon") names a place such as a repository.
  const path = all.some((word) => word.path && word.literal);
  const encoded = all.some((word) => word.encoded);
  const gives = given | (dates >= 2 || span ? GIVES_RANGE : 0) | (searchesTopic ? GIVES_TOPIC : 0) | (amount ? GIVES_AMOUNT : 0) | (path ? GIVES_PATH : 0) | (encoded ? GIVES_ENCODED : 0) | (givesDocument(text) ? GIVES_DOCUMENT : 0) | (givesCode(text) || all.some((word) => word.capitals && /^\p{L}{2,3}$/u.test(word.word) && !context.names.has(word.stem)) ? GIVES_CODE : 0) | (all.some((word) => word.channel) ? GIVES_CHANNEL : 0);
  // A chunk with digits some task knows ("md5", "base64") names a thing, not a record; an address or a #channel
  // names someone or somewhere.
  const identifies = all.some((word, at) => !word.given && !word.address && !word.setting && !counts(all, at) && (word.literal || (word.nameLike && /\p{N}/u.test(word.word) && !context.has(word.stem)))) || quotes(text);
  // A job counting things or describing them as open with no verb at all ("last 20 messages in #design", "open
  // bugs in acme/widgets") asks to see them too.
  // So does one naming things over a past span ("emails from my bank last month in gmail").
  const pastSpan = all.some((word, at) => PAST_SPANS.has(word.word) && (word.word === 'yesterday' || ['week', 'month', 'year', 'days', 'weeks', 'months', 'quarter'].includes(all[at + 1]?.word ?? '')));
  const counting = (listsOpen || pastSpan || all.some((_, at) => counts(all, at))) && terms.every((term) => term.role !== 'neutral');
  const asksToSee = !question && terms.every((term) => term.role !== 'action') && (counting || terms.some((term) => term.role === 'neutral' && verbIn(seeingVerbs, term.word)));
  const searches = terms.some((term) => verbIn(searchVerbs, term.word));
  // "convert this PNG to a JPG": converting with nothing a task knows named, only names, is converting something else.
  if (terms.every((term) => term.role !== 'object' || term.alternatives.length === 0) && terms.some((term) => term.role === 'action' && formChangingVerbs.has(term.word)) && all.some((word) => word.nameLike && !knows(word))) elsewhere = true;
  // Opening hours, the time something happens, a prediction, a company's stock, sharing, a crypto-asset, the
  // asker's whereabouts, a file the asker holds, a standing watch.
  if ((asksTickets(all) && !namesProvider) || asksOpeningHours(all) || asksTimeOfEvent(all) || asksPrediction(all) || asksStock(all) || (!question && changesAccess(all)) || namesCrypto(all, context.names) || asksWhereabouts(all) || holdsFile(all, knows) || (!question && asksStandingWatch(all))) elsewhere = true;
  // "what was the temperature in Paris on July 14, 1990": a question in the past about a date.
  const asksPast = question && !!(gives & (GIVES_DATE | GIVES_RANGE)) && all.some((word) => PAST_AUXILIARIES.has(word.word));
  // A verb setting the scene ("I'm about to walk the dog, how windy is it") has no object the job seeks.
  return { terms, question, asksToSee, searches, sought: afterContext ? undefined : sought, gives, identifies, identifiers, elsewhere, asksPast, asksOf: askedOf(all) };
}
