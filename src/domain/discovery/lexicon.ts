/**
 * Word classes discovery uses to read a job sentence (docs/discovery.md, "Action and object words").
 * They are English function words and verbs, not catalog content: a catalog teaches discovery new words
 * through its tasks' text and its `synonyms`, never through these lists.
 */

/** Chat interjections ("lol set an alarm", "yo can u ..."): they carry no job. */
export const INTERJECTIONS = ['lol', 'yo', 'omg', 'btw', 'fyi', 'haha', 'hmm', 'um', 'umm', 'uh', 'thx', 'ty', 'tbh', 'idk', 'pls', 'plz', 'greetings', 'dear'];

/** Dropped before ranking: articles, pronouns, auxiliaries, prepositions, conjunctions, politeness. */
export const STOP_WORDS = [
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'some', 'any', 'all', 'every', 'each', 'such',
  'i', 'me', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'you', 'your', 'yours', 'he', 'him', 'his',
  'she', 'her', 'hers', 'it', 'its', 'they', 'them', 'their', 'theirs', 'someone', 'something', 'anything', 'everything', 'whatever', 'whichever',
  'be', 'am', 'is', 'are', 'was', 'were', 'been', 'being', 'do', 'does', 'did', 'done', 'doing', 'have', 'has',
  'had', 'having', 'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'going', 'gonna',
  'let', 'lets', 'please', 'kindly', 'thanks', 'thank', 'hey', 'hi', 'hello', 'ok', 'okay', ...INTERJECTIONS,
  'sure', 'hope', 'says', 'yet',
  // What is left of a negative contraction ("haven't", "didn't").
  'haven', 'hasn', 'hadn', 'didn', 'doesn', 'don', 'isn', 'aren', 'wasn', 'weren', 'wouldn', 'couldn', 'shouldn', 'want', 'wants', 'wanted', 'wanna', 'need', 'needs', 'needed', 'like', 'love', 'wish', 'try', 'help', 'able',
  'what', 'whats', 'wat', 'wats', 'wot', 'which', 'who', 'whom', 'whose', 'when', 'where', 'wheres', 'why', 'how', 'hows', 'whether',
  'to', 'of', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'without', 'about', 'into', 'onto', 'over',
  'under', 'up', 'down', 'out', 'off', 'as', 'than', 'then', 'so', 'too', 'very', 'just', 'also', 'only',
  'and', 'or', 'but', 'nor', 'if', 'not', 'no', 'yes', 'there', 'here', 'again', 'via', 'per', 'using', 'use',
  'much', 'many', 'more', 'most', 'other', 'another', 'same', 'way', 'thing', 'things',
  'don', 'doesn', 'didn', 'isn', 'aren', 'wasn', 'won', 'cannot', 'wouldn', 'shouldn', 'couldn',
  'know', 'tell', 'say', 'ask', 'quick', 'quickly', 'really', 'away', 'back', 'soon', 'couple', 'bunch', 'handful', 'few', 'several',
  'asap', 'plz', 'thx', 'outside', 'exactly', 'actually', 'briefly', 'maybe', 'somehow', 'anyway',
  'against', 'vs', 'versus', 'between', 'among', 'within', 'near', 'across', 'during', 'since', 'until', 'while',
  'before', 'after', 'around', 'through', 'throughout', 'toward', 'towards', 'upon', 'onto', 're', 'etc',
];

/**
 * Verbs that do not decide the task: asking to see something (every data task answers a question) and
 * light verbs whose object carries the meaning ("make a slug", "leave a comment"). They help ranking
 * ("list issues" over "create issue") but a task need not match them to qualify.
 */
export const NEUTRAL_VERBS = [
  'get', 'fetch', 'show', 'find', 'look', 'lookup', 'check', 'see', 'give', 'read', 'retrieve', 'view',
  'display', 'list', 'search', 'query', 'return', 'grab', 'obtain', 'pull', 'browse', 'inspect',
  'describe', 'explore', 'discover', 'figure', 'learn', 'load', 'open', 'make', 'turn', 'take', 'leave',
  'bring', 'keep', 'dump', 'explain', 'recommend', 'suggest', 'catch', 'track', 'monitor', 'watch', 'compare',
  // Asking for what a task reads in some form ("print the body of that email", "export my repos", "review my
  // agenda"): the reading is the task; printing or saving the answer is the caller's.
  'print', 'export', 'download', 'review',
  // Chat shorthand for asking to be given ("gimme the front page of Hacker News"), and the formal word for it.
  'gimme', 'provide',
  // An agent's words for listing and reading again ("enumerate Stripe clients", "poll the freshest stories").
  'enumerate', 'poll',
  // Finding where something is ("locate my laptop").
  'locate',
];

/**
 * Read verbs that only ask to see (not the light verbs make, take, leave, give, nor "open", which may open an
 * issue): a command whose verbs are all of these, with no action word, is served first by tasks that read.
 */
export const SEEING_VERBS = [
  'get', 'fetch', 'show', 'find', 'look', 'lookup', 'check', 'see', 'read', 'retrieve', 'view', 'display', 'list',
  'search', 'query', 'grab', 'obtain', 'pull', 'browse', 'inspect', 'describe', 'explore', 'discover', 'figure', 'learn',
  'load', 'dump', 'explain', 'catch', 'track', 'monitor', 'watch', 'compare', 'print', 'export', 'download', 'review', 'gimme', 'provide', 'enumerate', 'poll', 'locate',
];

/** Read verbs asking to search ("find", "look for"): a job without one, nor a topic, asks for a thing rather than a search. */
export const SEARCH_VERBS = ['search', 'find', 'look', 'lookup', 'query', 'seek', 'hunt', 'browse'];

/**
 * Verbs that change something or transform an input. A job naming one of these is only served by a task
 * that matches at least one of the job's action words (directly or through a synonym).
 */
export const ACTION_VERBS = [
  'send', 'post', 'create', 'add', 'write', 'compose', 'draft', 'delete', 'remove', 'erase',
  'update', 'edit', 'change', 'modify', 'rename', 'set', 'upload', 'schedule', 'book', 'reserve',
  'cancel', 'invite', 'share', 'publish', 'star', 'unstar', 'follow', 'unfollow', 'comment', 'reply',
  'respond', 'close', 'reopen', 'merge', 'assign', 'label', 'archive', 'move', 'copy', 'translate',
  'convert', 'shorten', 'encode', 'decode', 'encrypt', 'decrypt', 'hash', 'generate', 'calculate',
  'compute', 'format', 'parse', 'validate', 'verify', 'transfer', 'pay', 'buy', 'purchase', 'order',
  'sell', 'play', 'pause', 'call', 'notify', 'remind', 'mark', 'reset', 'start', 'stop', 'run', 'deploy',
  'fork', 'clone', 'transcribe', 'summarize', 'summarise', 'resize', 'compress', 'sign', 'approve',
  'reject', 'block', 'unblock', 'mute', 'subscribe', 'unsubscribe', 'join', 'accept', 'decline', 'put',
  'register', 'install', 'restart', 'sync', 'import', 'save', 'store', 'record', 'count', 'sort',
  'split', 'round', 'slugify', 'capitalize', 'uppercase', 'lowercase', 'trim', 'escape', 'unescape',
  'tweet', 'forward', 'attach', 'pin', 'unpin', 'react', 'rate', 'submit', 'fill',
  'measure', 'shuffle', 'pick', 'roll', 'flip', 'draw', 'wrap', 'minify', 'prettify', 'beautify',
  'chart', 'plot', 'graph', 'upsert', 'insert', 'refund', 'charge', 'invoice', 'extract', 'define',
  'complete', 'finish', 'tick', 'produce', 'determine', 'estimate', 'derive', 'exchange',
  // Everyday deeds: a job naming one is served only by a task that performs it, so these keep a job
  // about the home, errands or travel from landing on a task that merely shares its other words.
  'adopt', 'rent', 'hire', 'lease', 'borrow', 'lend', 'fix', 'repair', 'mend', 'unclog', 'replace', 'service',
  'clean', 'wash', 'tidy', 'vacuum', 'mop', 'sweep', 'mow', 'prune',
  'paint', 'build', 'cook', 'bake', 'fry', 'grill', 'brew', 'feed', 'walk', 'groom', 'bathe', 'babysit',
  'lock', 'unlock', 'dim', 'brighten', 'shut', 'switch', 'renew', 'invest',
  'apply', 'enroll', 'enrol', 'signup', 'donate', 'bet', 'vote', 'deliver', 'ship', 'collect', 'request',
  'fly', 'travel', 'ride', 'hail', 'meditate', 'teach', 'sing', 'dance',
  'log', 'shop', 'dye', 'shave', 'rebook', 'reschedule', 'checkout',
  'refill', 'dial', 'stream', 'scan', 'fax', 'wire',
  'hide', 'unhide', 'crack', 'predict',
  // Shell shorthand for deleting, moving and copying.
  'del', 'rm', 'mv', 'cp', 'sew', 'knit', 'identify', 'recognize', 'recognise', 'diagnose', 'reverse', 'evolve',
  // Deeds on accounts and systems: enabling, granting, scaling or undoing something.
  'enable', 'disable', 'activate', 'deactivate', 'kick', 'ban', 'unban', 'upvote', 'downvote', 'retweet', 'scale',
  'provision', 'rollback', 'revert', 'rotate', 'revoke', 'grant', 'upgrade', 'downgrade', 'migrate', 'backup', 'restore',
  'uninstall', 'suspend', 'resume', 'snooze', 'dismiss', 'withdraw', 'deposit', 'tip', 'rsvp',
];

/**
 * Verb and particle pairs that make one deed ("turn on the lights", "top up my phone"): read as one action
 * word, which a task must perform like any other.
 */
export const PARTICLE_VERBS: Record<string, string[]> = {
  turn: ['on', 'off', 'up', 'down'],
  switch: ['on', 'off'],
  shut: ['down', 'off'],
  power: ['on', 'off', 'up', 'down'],
  top: ['up'],
  check: ['in', 'out'],
  plug: ['in'],
  hook: ['up'],
  pick: ['up'],
  drop: ['off'],
  fire: ['off'],
  pull: ['out', 'back'],
  take: ['away', 'off', 'down', 'back'],
};

/**
 * Words after which an action verb is a noun ("the post", "my reply", "a blog post" is caught by the
 * preceding noun instead).
 */
export const DETERMINERS = [
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'your', 'our', 'their', 'his', 'her', 'its',
  'some', 'any', 'each', 'every', 'no', 'of',
];

/** After one of these an action verb is a noun ("sorted by update", "ready for review"); "to" keeps a verb. */
export const PREPOSITIONS = ['by', 'for', 'of', 'on', 'in', 'at', 'with', 'from', 'about', 'after', 'before', 'since', 'until', 'during', 'via'];

/** Words after which a job names its topic ("books about the history of Rome", "an email regarding the outage"). */
export const TOPIC_MARKERS = ['about', 'regarding', 'concerning'];

/** A job opening with one of these asks to know something: it is answered by a task that reads. */
export const QUESTION_WORDS = ['what', 'whats', 'wat', 'wats', 'wot', 'hows', 'which', 'who', 'whom', 'whose', 'when', 'where', 'wheres', 'why', 'how'];

/**
 * Words opening a yes-or-no question ("is it raining", "do I have mail", "should I pack an umbrella", "any
 * news", "anything in my inbox"), unless "you" follows: "will you" opens a polite command. "can I ..." asks for a deed, so it is not here.
 */
export const QUESTION_AUXILIARIES = ['is', 'are', 'was', 'were', 'am', 'do', 'does', 'did', 'has', 'have', 'should', 'will', 'isnt', 'arent', 'any', 'anything', 'anyone'];

/** "how do I ...", "how to ...": a request for the deed, not a question about the world. */
export const HOW_TO_FOLLOWERS = ['do', 'can', 'could', 'should', 'would', 'to', 'shall', 'may'];

/**
 * Verbs whose object is the thing they bring about ("post a comment", "add a reply", "write a review"): when
 * that object names a deed too, the deed is the job. Other verbs take their object as given: "buy the book"
 * is not booking, "slugify my blog post" not posting.
 */
export const MAKING_VERBS = ['post', 'add', 'write', 'send', 'create', 'put', 'submit', 'leave', 'make', 'drop', 'compose', 'draft', 'give', 'issue'];

/**
 * Verbs of writing words somewhere ("write in #general", "post thanks! on issue 99", "leave a note on the PR"): put
 * on or in a thing, they post a message or a comment there.
 */
export const WRITING_VERBS = ['write', 'post', 'put', 'leave', 'drop'];

/** The deeds a writing verb does on or in a thing: posting a message, commenting. */
export const WRITTEN_DEEDS = ['post', 'comment'];

/**
 * Nouns that are a command's verb when they open it before a determiner ("issue a payout", "issue a refund"):
 * elsewhere they name a thing ("reply to issue #42").
 */
export const OPENING_VERBS = ['issue', 'place'];

/**
 * Verbs whose object is the thing they make ("create a repository", "add a row"): a task doing the job names
 * that thing, so "create a new Slack channel" is not served by adding a reaction in Slack.
 */
export const CREATING_VERBS = ['create', 'add', 'insert', 'upsert'];

/** "tell me", "send us": the asker wants to receive, not to send. */
export const ASKERS = ['me', 'us'];

/** Action verbs that, followed by an asker ("send me the forecast"), only ask to be given something. */
export const GIVING_VERBS = ['send', 'forward', 'share'];

/** Words a command may open with before its verb ("please", "can you", "hey,"). */
export const POLITE_OPENERS = ['please', 'pls', 'plz', 'kindly', 'can', 'could', 'would', 'will', 'you', 'hey', 'hi', 'ok', 'okay', 'just', 'now', 'go', 'ahead', 'and', 'then', ...INTERJECTIONS];

/**
 * Words that, opening a command, mean another verb: nouns used as verbs ("email my boss the report" asks
 * to send one), everyday turns of phrase ("shoot an email", "file a bug") and "tell" followed by someone
 * other than the asker. The job then carries that verb as an action word beside the word itself.
 */
export const IMPLIED_VERBS: Record<string, string> = {
  tell: 'send',
  email: 'send',
  mail: 'send',
  message: 'send',
  text: 'send',
  dm: 'send',
  ping: 'send',
  shoot: 'send',
  fire: 'send',
  drop: 'send',
  tweet: 'post',
  file: 'create',
  raise: 'create',
  jot: 'add',
  tick: 'complete',
};

/**
 * Openers of IMPLIED_VERBS that name a thing too ("email my boss", "text Sam", "file a bug"): the word also
 * says what the job is about. The others (tell, ping, shoot, raise, jot...) only say the deed.
 */
export const NOUN_OPENERS = ['email', 'mail', 'message', 'text', 'dm', 'tweet', 'file'];

/**
 * Action verbs asking for a result worked out from the job's input ("calculate", "convert", "graph"):
 * any task that changes nothing may give it, whether or not it names the verb ("compute an md5 checksum"
 * is answered by "Hash text", "graph the pound" by exchange rates over a date range). The other action
 * verbs change the world (send, book, buy, delete) and only a task performing them will do.
 */
export const RESULT_VERBS = [
  'compute', 'calculate', 'generate', 'produce', 'convert', 'exchange', 'determine', 'estimate', 'derive', 'chart', 'plot', 'graph',
  'count', 'sort', 'measure', 'format', 'parse', 'validate', 'verify', 'encode', 'decode',
  'encrypt', 'decrypt', 'hash', 'shorten', 'slugify', 'capitalize', 'uppercase', 'lowercase', 'trim',
  'escape', 'unescape', 'minify', 'prettify', 'beautify', 'extract', 'pull out', 'define', 'round', 'split', 'shuffle', 'roll', 'flip',
];

/**
 * Result verbs that say what is wanted, not how ("compute an md5 checksum", "graph the pound"): any task that
 * changes nothing may answer them. The others name one transformation ("decrypt", "slugify", "encode") and
 * are met only by a task performing it: hashing text does not decrypt a hash.
 */
export const OPEN_RESULT_VERBS = ['compute', 'calculate', 'generate', 'produce', 'determine', 'estimate', 'derive', 'chart', 'plot', 'graph', 'measure', 'convert', 'exchange'];

/**
 * Result verbs saying a thing is wanted in another form ("convert", "exchange"): only a task performing them
 * (converting units, currencies, a time zone) gives it, so no task listing files will "convert this pdf to word".
 */
export const FORM_CHANGING_VERBS = ['convert', 'exchange'];

/**
 * Words that qualify the job (when, which one) rather than name what it is about. They count for
 * ranking but, like read verbs, are never the object a task must cover.
 */
export const MODIFIERS = [
  'new', 'newest', 'fresh', 'freshest', 'latest', 'recent', 'recently', 'current', 'currently', 'today', 'todays', 'tomorrow', 'tonight',
  'yesterday', 'now', 'rn', 'right', 'next', 'last', 'first', 'top', 'best', 'week', 'weekend', 'month', 'year',
  'day', 'days', 'morning', 'afternoon', 'evening', 'later', 'lately', 'single', 'one', 'specific',
  'certain', 'given', 'particular', 'public', 'private', 'whole', 'full', 'entire', 'detail', 'details',
  'info', 'information', 'data', 'my', 'daily', 'weekly', 'monthly', 'hourly', 'moment',
];

/**
 * Well-known products and services, as people write them in lower case ("a whatsapp message", "via twilio"):
 * names, like a capitalised word, so the readings of a service the catalog lacks apply to them. A name some task
 * is named by (a catalog's own provider) stays a word of the catalog. Names that are also common words ("zoom",
 * "teams", "signal", "outlook", "chase") and meeting tools, which calendar events name, are left out.
 */
export const SERVICE_NAMES = [
  'whatsapp', 'telegram', 'discord', 'wechat', 'viber', 'skype', 'imessage', 'snapchat', 'instagram', 'facebook',
  'tiktok', 'twitter', 'linkedin', 'reddit', 'pinterest', 'tumblr', 'mastodon', 'bluesky', 'youtube', 'twitch', 'vimeo',
  'jira', 'trello', 'asana', 'notion', 'confluence', 'clickup', 'basecamp', 'todoist', 'evernote', 'miro', 'figma', 'canva',
  'dropbox', 'onedrive', 'icloud', 'sharepoint', 'hotmail', 'protonmail', 'salesforce', 'hubspot', 'zendesk', 'intercom',
  'mailchimp', 'pipedrive', 'freshdesk', 'quickbooks', 'xero', 'shopify', 'amazon', 'ebay', 'etsy', 'walmart', 'ikea',
  'costco', 'aliexpress', 'alibaba', 'uber', 'lyft', 'airbnb', 'expedia', 'tripadvisor', 'doordash', 'ubereats', 'grubhub',
  'deliveroo', 'instacart', 'paypal', 'venmo', 'revolut', 'coinbase', 'robinhood', 'zelle', 'cashapp', 'klarna', 'bitcoin',
  'btc', 'ethereum', 'dogecoin', 'netflix', 'spotify', 'hulu', 'gitlab', 'bitbucket', 'jenkins', 'vercel', 'heroku',
  'netlify', 'circleci', 'fitbit', 'strava', 'peloton', 'garmin', 'alexa', 'siri', 'waze', 'twilio', 'microsoft', 'bamboohr',
  'pagerduty', 'opsgenie', 'servicenow', 'datadog', 'splunk', 'okta', 'zapier', 'webex', 'powerpoint',
];
