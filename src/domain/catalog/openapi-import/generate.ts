import { placeholdersOf } from '../../../providers/templates.js';
import { compileInputSchema, outputSchemaProblems } from '../input.js';
import { SLUG } from '../schema.js';
import type { JsonSchema, JsonTemplate, ProviderAuth, ProviderProbe, TaskRequest } from '../types.js';
import { ImportError, pointerTarget, type OpenApiDocument } from './document.js';
import { isObject, SchemaConverter, TooManyDefinitions } from './schema.js';
import { bounded, fieldName, firstParagraph, plainText, snakeWords } from './text.js';

/**
 * An OpenAPI 3 description turned into catalog entries by the rules docs/catalog.md ("Importing an OpenAPI
 * description") states: one provider, one task per operation the gateway can run, every other operation
 * skipped with its reason. Nothing here reads files or writes: see import.ts and write.ts.
 */

export interface ImportOptions {
  /** The provider's slug, and the first part of every task id. */
  provider: string;
  name?: string;
  /** Where the provider lives, instead of the description's first server. */
  baseUrl?: string;
  /** Operations to keep (operationId, tag or `METHOD /path`; `*` matches any run of characters). */
  include?: string[];
  /** Operations to leave out, by the same patterns; exclusion wins. */
  exclude?: string[];
}

/** One operation of the description: `GET /pets/{id}`, with its operationId when it has one. */
export interface OperationRef {
  method: string;
  path: string;
  operationId?: string;
}

export interface ImportedTask {
  operation: OperationRef;
  task: Record<string, unknown>;
  /** What a reader of the file should know about this task (renamed fields, parameters left out). */
  notes: string[];
}

/** What kind of thing stops an operation: summaries count reasons by it. */
export type SkipCategory = 'method' | 'auth' | 'path' | 'query' | 'header' | 'cookie' | 'body' | 'answer' | 'server' | 'schema';

export interface SkippedOperation {
  operation: OperationRef;
  category: SkipCategory;
  reason: string;
}

export interface ImportedCatalog {
  title: string;
  version: string;
  provider: Record<string, unknown>;
  /** What a reader should know about the provider block (server variables filled in, a probe to write). */
  providerNotes: string[];
  tasks: ImportedTask[];
  skipped: SkippedOperation[];
  /** Operations left out by --include/--exclude. */
  excluded: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
const TASK_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const JSON_MEDIA = /^application\/([\w.+-]+\+)?json\s*(;.*)?$/i;
const FORM_MEDIA = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
/** Answers carried as text (the gateway hands non-JSON answers back as a string). */
const TEXT_MEDIA = /^(text\/(?!event-stream)|application\/([\w.+-]+\+)?xml|application\/(yaml|x-yaml|javascript|csv))/i;
/** Headers HTTP itself sets: OpenAPI says parameters naming them are ignored. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** Headers the gateway sends on every upstream request of its own (src/providers/http-task.ts). */
const SENT_BY_GATEWAY = new Set(['user-agent']);

/** Each task's description, input descriptions and answer schema are bounded so a generated file stays readable. */
const LIMITS = {
  title: 200,
  description: 500,
  fieldDescription: 300,
  /** Members of an answer are named and typed, not described: answers are large, and their names say most. */
  outputDescription: 0,
  /** Characters of an answer schema (as JSON); a larger one is described fewer definitions deep. */
  outputChars: 6_000,
  /** Definitions (linked schemas) of an answer; more are described fewer definitions deep. */
  outputDefinitions: 50,
  /** How many definitions deep an input is described, unless it would need more than inputDefinitions. */
  inputDepth: 8,
  inputDefinitions: 100,
  keywords: 8,
  idChars: 100,
};

type Node = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: unknown;
  description?: string;
  style?: string;
  explode?: boolean;
  content?: unknown;
  deprecated?: boolean;
}

/** An operation the gateway cannot run: the reason is what the summary and the skipped list say. */
class Unrunnable extends Error {
  constructor(
    readonly category: SkipCategory,
    message: string,
  ) {
    super(message);
  }
}

interface AuthChoice {
  scheme: string;
  auth: ProviderAuth;
}

export function generateCatalog(document: OpenApiDocument, options: ImportOptions): ImportedCatalog {
  if (!SLUG.test(options.provider)) throw new ImportError(`--provider ${options.provider} must be a slug of a-z, 0-9 and - (at most 100 characters)`);
  const resolve = (ref: string) => pointerTarget(document, ref);
  const deref = (node: unknown): unknown => {
    for (let steps = 0; isObject(node) && typeof node.$ref === 'string' && steps < 20; steps += 1) node = resolve(node.$ref);
    return node;
  };
  const info = isObject(document.info) ? document.info : {};
  const title = typeof info.title === 'string' && info.title.trim() ? info.title.trim() : options.provider;
  const providerNotes: string[] = [];
  const baseUrl = options.baseUrl ? checkedBaseUrl(options.baseUrl, '--base-url') : serverUrl(document.servers, providerNotes);

  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  const supported = new Map<string, ProviderAuth>();
  const unsupported = new Map<string, string>();
  for (const [name, scheme] of Object.entries(schemes)) {
    const mapped = authOf(deref(scheme), baseUrl);
    if (typeof mapped === 'string') unsupported.set(name, mapped);
    else supported.set(name, mapped);
  }

  const operations: Array<{ ref: OperationRef; operation: Node; pathItem: Node; tags: string[] }> = [];
  const skipped: SkippedOperation[] = [];
  let excluded = 0;
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const pathItem = deref(rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = deref(pathItem[method]);
      if (!isObject(operation)) continue;
      const ref: OperationRef = { method: method.toUpperCase(), path, ...(typeof operation.operationId === 'string' && operation.operationId.trim() ? { operationId: operation.operationId.trim() } : {}) };
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
      if (!selected(ref, tags, options)) {
        excluded += 1;
        continue;
      }
      if (!TASK_METHODS.has(method)) {
        skipped.push({ operation: ref, category: 'method', reason: `${ref.method} is not a method a task sends (GET, POST, PUT, PATCH, DELETE)` });
        continue;
      }
      operations.push({ ref, operation, pathItem, tags });
    }
  }

  const companions = new Map<string, Set<string>>();
  const requirementsOf = (operation: Node) =>
    securityAlternatives(operation.security ?? document.security).map((alternative) => oneCredential(oneToken(alternative, supported), supported, companions));
  const chosen = chooseAuth(operations.map(({ operation }) => requirementsOf(operation)), supported) ?? credentialHeader(operations, deref, providerNotes);

  const usedIds = new Set<string>();
  const usedCapabilities = new Set<string>();
  const tasks: ImportedTask[] = [];
  for (const { ref, operation, pathItem, tags } of operations) {
    try {
      const security = securityFor(requirementsOf(operation), chosen, supported, unsupported);
      const built = buildBoundedTask({ ref, operation, pathItem, tags, security, provider: options.provider, deref, resolve, baseUrl, chosen });
      const id = uniqueId(built.name, options.provider, usedIds, ref);
      const capability = uniqueCapability(id, usedCapabilities);
      tasks.push({ operation: ref, task: { id, provider: options.provider, capability, ...built.task }, notes: built.notes });
    } catch (err) {
      if (!(err instanceof Unrunnable)) throw err;
      skipped.push({ operation: ref, category: err.category, reason: err.message });
    }
  }
  tasks.sort((a, b) => ((a.task.id as string) < (b.task.id as string) ? -1 : 1));

  const description = typeof info.description === 'string' ? bounded(firstParagraph(info.description), 1000) : '';
  const provider: Record<string, unknown> = {
    slug: options.provider,
    name: bounded((options.name ?? title).trim() || options.provider, 200),
    ...(description ? { description } : {}),
    base_url: baseUrl,
    auth: chosen?.auth ?? { type: 'none' },
  };
  if (!Object.keys(schemes).length && !chosen) providerNotes.push('The description declares no security scheme, so auth is none: if the API takes a credential, write its auth block (docs/catalog.md).');
  const staticHeaders = chosen ? [...(companions.get(chosen.scheme) ?? [])].sort() : [];
  if (staticHeaders.length) {
    provider.headers = Object.fromEntries(staticHeaders.map((name) => [name, 'CHANGE-ME']));
    providerNotes.push(`TODO: the API asks for ${staticHeaders.join(', ')} beside the credential: write ${staticHeaders.length === 1 ? 'its value' : 'their values'} in headers (an identifier such as a client id; a second secret needs a manual auth block).`);
  }
  if (chosen) {
    const probe = probeFor(tasks);
    if (probe) provider.probe = probe;
    else providerNotes.push('TODO: no GET without required parameters to check a credential with; add a probe (docs/catalog.md) or connections are taken unchecked.');
  }
  const unsupportedUsed = [...unsupported].filter(([name]) => skipped.some((entry) => entry.reason.includes(`scheme ${name} `)));
  for (const [name, reason] of unsupportedUsed) providerNotes.push(`Security scheme ${name} (${reason}) has no catalog equivalent: the operations that need it are skipped; write an auth block by hand to add them.`);
  return { title, version: typeof info.version === 'string' ? info.version : '', provider, providerNotes, tasks, skipped, excluded };
}

/** `*` in a pattern is any run of characters; patterns compare case-insensitively. */
function matches(pattern: string, value: string): boolean {
  const expression = pattern
    .trim()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`, 'i').test(value.trim());
}

function selected(ref: OperationRef, tags: string[], options: ImportOptions): boolean {
  const names = [`${ref.method} ${ref.path}`, ...(ref.operationId ? [ref.operationId] : []), ...tags];
  const hit = (patterns: string[] | undefined) => (patterns ?? []).some((pattern) => names.some((name) => matches(pattern, name)));
  if (options.include?.length && !hit(options.include)) return false;
  return !hit(options.exclude);
}

function checkedBaseUrl(url: string, where: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ImportError(`${where} ${url} is not an absolute URL; give the provider's URL with --base-url`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ImportError(`${where} ${url} is not http or https; give the provider's URL with --base-url`);
  if (parsed.search || parsed.hash) throw new ImportError(`${where} ${url} carries a query or fragment; give the provider's URL with --base-url`);
  return parsed.toString().replace(/\/+$/, '');
}

/**
 * The description's first https server (else its first server): `{variables}` are filled with their
 * defaults; a relative server or one without defaults needs --base-url.
 */
function serverUrl(servers: unknown, notes: string[]): string {
  const list = Array.isArray(servers) ? servers.filter((server): server is Node => isObject(server) && typeof server.url === 'string') : [];
  if (!list.length) throw new ImportError('names no server; give the provider\'s URL with --base-url');
  const server = list.find((entry) => /^https:\/\//i.test(entry.url as string)) ?? list[0];
  const variables = isObject(server.variables) ? server.variables : {};
  const filled: string[] = [];
  // A protocol-relative server (`//api.example.com`) is taken as https.
  const url = (server.url as string).replace(/^\/\//, 'https://').replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const variable = variables[name];
    const value = isObject(variable) && variable.default !== undefined ? String(variable.default) : undefined;
    if (value === undefined) throw new ImportError(`server ${server.url as string} has {${name}} without a default; give the provider's URL with --base-url`);
    filled.push(`${name}=${value}`);
    return value;
  });
  if (filled.length) notes.push(`Server ${server.url as string} with its variables' defaults (${filled.join(', ')}).`);
  if (!/^https?:\/\//i.test(url)) throw new ImportError(`server ${url || '(empty)'} is relative or not http(s); give the provider's URL with --base-url`);
  return checkedBaseUrl(url, 'server');
}

/** An access token the organization brings, sent as a bearer token. */
const BEARER: ProviderAuth = { type: 'api_key', header: 'Authorization', template: 'Bearer {secret}' };

/** A security scheme as a provider auth block, or why it has none. */
function authOf(scheme: unknown, baseUrl: string): ProviderAuth | string {
  if (!isObject(scheme)) return 'not described';
  const type = String(scheme.type ?? '');
  if (type === 'apiKey') {
    const name = String(scheme.name ?? '');
    if (scheme.in === 'header' && /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return { type: 'api_key', header: name, template: '{secret}' };
    if (scheme.in === 'query' && /^[A-Za-z0-9_.-]+$/.test(name)) return { type: 'api_key', query: name, template: '{secret}' };
    return `API key in ${String(scheme.in)}`;
  }
  if (type === 'http') {
    const kind = String(scheme.scheme ?? '').toLowerCase();
    if (kind === 'bearer') return { type: 'api_key', header: 'Authorization', template: 'Bearer {secret}' };
    if (kind === 'basic') return { type: 'api_key', header: 'Authorization', template: 'Basic {secret}' };
    return `HTTP ${kind || 'scheme'}`;
  }
  if (type === 'oauth2') {
    const flow = isObject(scheme.flows) && isObject(scheme.flows.authorizationCode) ? scheme.flows.authorizationCode : undefined;
    // Another flow (implicit, client credentials, password): the credential is an access token got outside the gateway.
    if (!flow) return BEARER;
    const absolute = (url: unknown) => {
      try {
        const resolved = new URL(String(url), `${baseUrl}/`);
        return /^https?:$/.test(resolved.protocol) ? resolved.toString() : undefined;
      } catch {
        return undefined;
      }
    };
    const authorize = absolute(flow.authorizationUrl);
    const token = absolute(flow.tokenUrl);
    if (!authorize || !token) return 'OAuth2 without usable authorization and token URLs';
    return { type: 'oauth2', authorize_url: authorize, token_url: token, scopes: [], pkce: true };
  }
  return type === 'openIdConnect' ? BEARER : `type ${type || 'unknown'}`;
}

/** Each alternative of a security requirement: the scheme names it needs at once, with their scopes. */
function securityAlternatives(security: unknown): Array<Record<string, string[]>> {
  if (!Array.isArray(security)) return [];
  return security.filter(isObject).map((alternative) =>
    Object.fromEntries(Object.entries(alternative).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : []])),
  );
}

/**
 * Several OAuth2 (or bearer) schemes required together are flows of one authorization server (Google's
 * descriptions list an implicit and an authorization code flow side by side): one access token satisfies them,
 * so they count as the authorization code scheme alone, with the scopes of all.
 */
function oneToken(alternative: Record<string, string[]>, supported: Map<string, ProviderAuth>): Record<string, string[]> {
  const names = Object.keys(alternative);
  const token = (name: string) => {
    const auth = supported.get(name);
    return auth?.type === 'oauth2' || (auth?.type === 'api_key' && auth.header === 'Authorization' && auth.template === 'Bearer {secret}');
  };
  if (names.length < 2 || !names.every(token)) return alternative;
  const chosen = names.find((name) => supported.get(name)!.type === 'oauth2') ?? names[0];
  return { [chosen]: [...new Set(names.flatMap((name) => alternative[name]))] };
}

/**
 * Several API keys in headers required together (an API key beside a client id): the first is the provider's
 * credential, each other a static provider header whose value the operator writes in (`CHANGE-ME` until then),
 * which suits identifiers such as client ids; the names are kept in `companions` by the credential's scheme.
 */
function oneCredential(alternative: Record<string, string[]>, supported: Map<string, ProviderAuth>, companions: Map<string, Set<string>>): Record<string, string[]> {
  const names = Object.keys(alternative);
  const header = (name: string) => {
    const auth = supported.get(name);
    return auth?.type === 'api_key' && auth.header !== undefined && auth.template === '{secret}' ? auth.header : undefined;
  };
  if (names.length < 2 || !names.every(header)) return alternative;
  const [first, ...others] = names;
  const set = companions.get(first) ?? new Set<string>();
  others.forEach((name) => set.add(header(name)!));
  companions.set(first, set);
  return { [first]: alternative[first] };
}

/** The provider's one credential: the supported scheme most operations can use alone (ties: declaration order). */
function chooseAuth(requirements: Array<Array<Record<string, string[]>>>, supported: Map<string, ProviderAuth>): AuthChoice | undefined {
  const counts = new Map<string, number>();
  for (const alternatives of requirements) {
    for (const name of new Set(alternatives.filter((alternative) => Object.keys(alternative).length === 1).map((alternative) => Object.keys(alternative)[0]))) {
      if (supported.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  for (const name of supported.keys()) if ((counts.get(name) ?? 0) > (best ? counts.get(best)! : 0)) best = name;
  return best ? { scheme: best, auth: supported.get(best)! } : undefined;
}

/** The scheme name of a credential described as a header parameter rather than a security scheme. */
const CREDENTIAL_HEADER = '(header parameter)';

/**
 * Some descriptions declare no security scheme and ask for the key as a required header parameter
 * (`X-ListenAPI-Key`): when no scheme is chosen, the required header parameter named like a credential (key,
 * token, secret, auth) that most operations share becomes the provider's API key header.
 */
function credentialHeader(operations: Array<{ operation: Node; pathItem: Node }>, deref: (node: unknown) => unknown, notes: string[]): AuthChoice | undefined {
  const counts = new Map<string, number>();
  for (const { operation, pathItem } of operations) {
    for (const parameter of parametersOf(pathItem, operation, deref)) {
      if (parameter.in === 'header' && parameter.required && /key|token|secret|auth/i.test(parameter.name) && !IGNORED_HEADERS.has(parameter.name.toLowerCase())) {
        counts.set(parameter.name, (counts.get(parameter.name) ?? 0) + 1);
      }
    }
  }
  const [name] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [];
  if (!name || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return undefined;
  notes.push(`The description declares no security scheme; its operations take the credential as header parameter ${name}, which is the provider's API key header.`);
  return { scheme: CREDENTIAL_HEADER, auth: { type: 'api_key', header: name, template: '{secret}' } };
}

interface Security {
  /** Whether the task runs without a credential (no requirement, or an empty alternative). */
  anonymous: boolean;
  scopes: string[];
}

function securityFor(alternatives: Array<Record<string, string[]>>, chosen: AuthChoice | undefined, supported: Map<string, ProviderAuth>, unsupported: Map<string, string>): Security {
  if (!alternatives.length || alternatives.some((alternative) => !Object.keys(alternative).length)) return { anonymous: true, scopes: [] };
  const usable = chosen && alternatives.find((alternative) => Object.keys(alternative).length === 1 && chosen.scheme in alternative);
  if (usable) return { anonymous: false, scopes: chosen!.auth.type === 'oauth2' ? [...usable[chosen!.scheme]].sort() : [] };
  const names = alternatives.flatMap((alternative) => Object.keys(alternative));
  if (alternatives.every((alternative) => Object.keys(alternative).length > 1)) {
    throw new Unrunnable('auth', `needs several credentials at once (${Object.keys(alternatives[0]).join(' and ')}); a provider has one`);
  }
  const other = names.find((name) => unsupported.has(name));
  if (other) throw new Unrunnable('auth', `needs security scheme ${other} (${unsupported.get(other)}), which needs a manual auth block`);
  const known = names.find((name) => supported.has(name));
  if (known) throw new Unrunnable('auth', `needs security scheme ${known}, not the provider's ${chosen?.scheme ?? 'none'} (a provider has one credential)`);
  throw new Unrunnable('auth', `needs security scheme ${names[0]}, which the description does not declare`);
}

interface BuildContext {
  ref: OperationRef;
  operation: Node;
  pathItem: Node;
  tags: string[];
  security: Security;
  provider: string;
  deref: (node: unknown) => unknown;
  resolve: (ref: string) => unknown;
  baseUrl: string;
  chosen: AuthChoice | undefined;
}

/** Input fields by the name templates use: path parameters first, then query, then the body's members. */
class Fields {
  readonly properties: Record<string, JsonSchema> = {};
  readonly required: string[] = [];
  readonly notes: string[] = [];

  claim(name: string, where: string, schema: JsonSchema, required: boolean): string {
    const base = fieldName(name);
    let field = base;
    if (Object.hasOwn(this.properties, field)) field = fieldName(`${where}_${name}`);
    for (let n = 2; Object.hasOwn(this.properties, field); n += 1) field = fieldName(`${where}_${name}_${n}`);
    if (field !== name) this.notes.push(`${where} ${name} is input ${field}${field !== base ? ` (${base} was taken)` : ''}.`);
    this.properties[field] = schema;
    if (required) this.required.push(field);
    return field;
  }
}

type BuiltTask = { name: string; task: Record<string, unknown>; notes: string[] };

/**
 * The task with its input described LIMITS.inputDepth definitions deep, or half as deep (and so on) when that
 * needs more than LIMITS.inputDefinitions; deeper links then take any value of their type, and the notes say so.
 */
function buildBoundedTask(context: BuildContext): BuiltTask {
  for (let depth = LIMITS.inputDepth; ; depth = Math.floor(depth / 2)) {
    try {
      const built = buildTask(context, depth);
      if (depth < LIMITS.inputDepth) built.notes.push(`its input is described ${depth} linked ${depth === 1 ? 'schema' : 'schemas'} deep (its schemas link to too many others); deeper members take any value of their type.`);
      return built;
    } catch (err) {
      // At depth 0 no definition is written, so it always ends there.
      if (!(err instanceof TooManyDefinitions)) throw err;
    }
  }
}

function buildTask(context: BuildContext, inputDepth: number): BuiltTask {
  const { ref, operation, pathItem, deref, resolve } = context;
  if (Array.isArray(operation.servers) && operation.servers.length) checkSameServer(operation.servers, context.baseUrl);
  else if (Array.isArray(pathItem.servers) && pathItem.servers.length) checkSameServer(pathItem.servers, context.baseUrl);
  const input = new SchemaConverter(resolve, { use: 'input', describe: LIMITS.fieldDescription, maxRefDepth: inputDepth, maxDefinitions: LIMITS.inputDefinitions });
  const fields = new Fields();
  const notes: string[] = [];
  const parameters = parametersOf(pathItem, operation, deref);
  const request: TaskRequest = { method: ref.method as TaskRequest['method'], ...splitPath(ref.path) };
  const headers: Record<string, string> = {};

  const inPath = new Set([...request.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]));
  const described = new Set(parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name));
  const undescribed = [...inPath].filter((name) => !described.has(name));
  if (undescribed.length) throw new Unrunnable('path', `path parameter {${undescribed[0]}} is not described`);
  if (/[{}]/.test(request.path.replace(/\{[^{}]+\}/g, ''))) throw new Unrunnable('path', 'its path has an unbalanced brace');

  const fieldSchema = (parameter: Parameter, schema: JsonSchema) => {
    const text = parameter.description ? bounded(firstParagraph(parameter.description), LIMITS.fieldDescription) : '';
    return text && !schema.description ? { ...schema, description: text } : schema;
  };
  const order = ['path', 'query', 'header', 'cookie'];
  for (const parameter of [...parameters].sort((a, b) => order.indexOf(a.in) - order.indexOf(b.in))) {
    const place = `${parameter.in} parameter ${parameter.name}`;
    if (parameter.content !== undefined && parameter.schema === undefined) {
      if (parameter.required) throw new Unrunnable(parameter.in === 'path' ? 'path' : (parameter.in as SkipCategory), `${place} is serialised as a media type, which templates cannot write`);
      notes.push(`${place} is left out: it is serialised as a media type.`);
      continue;
    }
    const resolved = deref(parameter.schema);
    const type = isObject(resolved) ? resolved.type : undefined;
    if (parameter.in === 'path') {
      if (type === 'array' || type === 'object' || (parameter.style && parameter.style !== 'simple')) throw new Unrunnable('path', `${place} is ${type ?? parameter.style}, which a path template cannot write`);
      const field = fields.claim(parameter.name, 'path', fieldSchema(parameter, input.convert(parameter.schema)), true);
      request.path = request.path.split(`{${parameter.name}}`).join(`{${field}}`);
    } else if (parameter.in === 'query') {
      let schema: JsonSchema;
      if (/\s/.test(parameter.name)) {
        if (parameter.required) throw new Unrunnable('query', `${place} has white space in its name, which a task's query cannot name`);
        notes.push(`${place} is left out: it has white space in its name.`);
        continue;
      } else if (type === 'object' || parameter.style === 'deepObject') {
        if (parameter.required) throw new Unrunnable('query', `${place} is an object, which a query template cannot write`);
        notes.push(`${place} is left out: it is an object.`);
        continue;
      } else if (type === 'array') {
        const items = input.convert(isObject(resolved) ? resolved.items : undefined);
        const explode = parameter.explode ?? (parameter.style ?? 'form') === 'form';
        if (explode || (parameter.style && parameter.style !== 'form')) {
          // Repeated (`a=1&a=2`) or space- and pipe-delimited: the template sends one value.
          schema = { ...scalar(items), description: bounded(`${parameter.description ? `${firstParagraph(parameter.description)} ` : ''}(One value; the API takes several.)`, LIMITS.fieldDescription) };
          notes.push(`${place} takes a list; the task sends one value.`);
        } else {
          schema = { type: 'string', description: bounded(`${parameter.description ? `${firstParagraph(parameter.description)} ` : ''}(Comma-separated values.)`, LIMITS.fieldDescription) };
        }
      } else {
        schema = fieldSchema(parameter, input.convert(parameter.schema));
      }
      const field = fields.claim(parameter.name, 'query', schema, parameter.required);
      request.query = { ...request.query, [parameter.name]: `{${field}}` };
    } else if (parameter.in === 'header') {
      if (IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
      if (SENT_BY_GATEWAY.has(parameter.name.toLowerCase())) {
        if (parameter.required) notes.push(`${place} is the gateway's own.`);
        continue;
      }
      if (context.chosen?.scheme === CREDENTIAL_HEADER && context.chosen.auth.type === 'api_key' && context.chosen.auth.header?.toLowerCase() === parameter.name.toLowerCase()) continue;
      const fixed = isObject(resolved) ? (Array.isArray(resolved.enum) && resolved.enum.length === 1 ? resolved.enum[0] : resolved.default) : undefined;
      if (parameter.required && ((typeof fixed === 'string' && fixed !== '') || typeof fixed === 'number')) headers[parameter.name] = String(fixed);
      else if (parameter.required) throw new Unrunnable('header', `${place} is required, and a task's headers are fixed`);
      else notes.push(`${place} is left out: a task's headers are fixed.`);
    } else {
      if (parameter.required) throw new Unrunnable('cookie', `${place} is required, and tasks send no ${parameter.in === 'cookie' ? 'cookies' : parameter.in}`);
      notes.push(`${place} is left out: tasks send no ${parameter.in === 'cookie' ? 'cookies' : parameter.in}.`);
    }
  }

  // A query written into the path (`/uploads?convert={convert}`) may name a field no parameter describes.
  for (const [name, template] of Object.entries(request.query ?? {})) {
    const unknown = placeholdersOf(template).find((field) => !Object.hasOwn(fields.properties, field));
    if (unknown) throw new Unrunnable('path', `its path's query ${name}=${template} names {${unknown}}, which no parameter describes`);
  }

  const body = requestBodyOf(operation, deref);
  if (body && !['POST', 'PUT', 'PATCH'].includes(ref.method)) {
    if (body.required) throw new Unrunnable('body', `${ref.method} with a body, which tasks send only with POST, PUT and PATCH`);
    notes.push('its optional body is left out: a task sends no body with this method.');
  } else if (body?.unusable) {
    // Even an optional body cannot be left out: a POST, PUT or PATCH task always sends a JSON body.
    throw new Unrunnable('body', body.unusable);
  } else if (body) {
    if (body.form) request.body_encoding = 'form';
    if (body.mediaType && !/^application\/json\s*$/i.test(body.mediaType) && !body.form) headers['Content-Type'] = body.mediaType;
    request.body = bodyTemplate(body.schema, body.required, fields, input, deref);
  } else if (['POST', 'PUT', 'PATCH'].includes(ref.method)) {
    // Without a template the gateway would send the input itself as the body.
    request.body = {};
  }

  const output = outputOf(operation, deref, resolve, notes);
  const name = ref.operationId ? operationName(ref.operationId) : pathName(ref);
  const inputSchema: JsonSchema = { type: 'object', properties: fields.properties, ...(fields.required.length ? { required: fields.required } : {}), additionalProperties: false };
  const definitions = input.definitionsUsed();
  if (definitions) inputSchema.definitions = definitions;
  try {
    compileInputSchema(inputSchema);
  } catch (err) {
    throw new Unrunnable('schema', `its input schema does not compile: ${(err as Error).message.split('\n')[0]}`);
  }
  if (Object.keys(headers).length) request.headers = headers;

  const summary = typeof operation.summary === 'string' ? bounded(firstParagraph(operation.summary), LIMITS.title) : '';
  const longText = typeof operation.description === 'string' ? bounded(firstParagraph(operation.description), LIMITS.description) : '';
  const fallbackTitle = `${ref.method} ${ref.path}`;
  const title = summary || (longText ? bounded(longText.split(/(?<=[.!?])\s/)[0], 120) : fallbackTitle);
  const description = longText || summary || fallbackTitle;
  const write = ref.method !== 'GET';
  const oauth = context.chosen?.auth.type === 'oauth2' && !context.security.anonymous;
  const kind = oauth ? 'account' : write ? 'action' : 'data';
  const task: Record<string, unknown> = {
    kind,
    title,
    description,
    keywords: keywordsOf(context.tags, request.path),
    ...(context.security.scopes.length ? { scopes: context.security.scopes } : {}),
    ...annotationsOf(kind, ref.method),
    input: inputSchema,
    ...(output ? { output } : {}),
    request,
  };
  if (operation.deprecated === true) notes.push('deprecated by the description.');
  return { name, task, notes: [...fields.notes, ...notes] };
}

/**
 * Some descriptions make paths unique with what HTTP never sends (`/#X-Amz-Target=...`) or carry a fixed query
 * (`/?Action=DescribeRegions`): the fragment is dropped, the fixed query becomes fixed query entries.
 */
function splitPath(path: string): Pick<TaskRequest, 'path' | 'query'> {
  const [beforeFragment] = path.split('#');
  const [bare, search] = beforeFragment.split('?');
  const query = search ? Object.fromEntries([...new URLSearchParams(search)].filter(([name]) => /^[^\s]+$/.test(name))) : {};
  return { path: bare || '/', ...(Object.keys(query).length ? { query } : {}) };
}

/** An operation on another server than the provider's cannot be reached through the provider's base URL. */
function checkSameServer(servers: unknown[], baseUrl: string): void {
  const urls = servers.filter(isObject).map((server) => String(server.url ?? '').replace(/\/+$/, ''));
  if (!urls.some((url) => url === baseUrl || url === '')) throw new Unrunnable('server', `it is served from ${urls[0]}, not the provider's ${baseUrl}`);
}

/** Path-level parameters, overridden by the operation's own of the same name and place. */
function parametersOf(pathItem: Node, operation: Node, deref: (node: unknown) => unknown): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = deref(raw);
      if (!isObject(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') continue;
      byKey.set(`${parameter.in}\u0000${parameter.name}`, {
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true || parameter.in === 'path',
        schema: parameter.schema,
        description: typeof parameter.description === 'string' ? parameter.description : undefined,
        style: typeof parameter.style === 'string' ? parameter.style : undefined,
        explode: typeof parameter.explode === 'boolean' ? parameter.explode : undefined,
        content: parameter.content,
        deprecated: parameter.deprecated === true,
      });
    }
  }
  return [...byKey.values()];
}

interface Body {
  required: boolean;
  schema?: unknown;
  mediaType?: string;
  form?: boolean;
  /** Why the body cannot be sent (multipart, binary, another media type). */
  unusable?: string;
}

function requestBodyOf(operation: Node, deref: (node: unknown) => unknown): Body | undefined {
  const body = deref(operation.requestBody);
  if (!isObject(body)) return undefined;
  const required = body.required === true;
  const content = isObject(body.content) ? body.content : {};
  const types = Object.keys(content);
  if (!types.length) return undefined;
  const json = types.find((type) => JSON_MEDIA.test(type));
  if (json) return { required, schema: (content[json] as Node | undefined)?.schema, mediaType: json };
  const form = types.find((type) => FORM_MEDIA.test(type));
  if (form) return { required, schema: (content[form] as Node | undefined)?.schema, form: true };
  const first = types[0];
  const reason = /^multipart\//i.test(first)
    ? `its body is a multipart upload (${first})`
    : /octet-stream|^image\/|^video\/|^audio\/|zip|pdf/i.test(first)
      ? `its body is binary (${first})`
      : `its body is ${first}, not JSON or a form`;
  return { required, unusable: reason };
}

/**
 * The body template: an object body's members become input fields (`{member: "{field}"}`), anything else
 * (an array, a map, a choice of shapes) is one `body` field sent as it is.
 */
function bodyTemplate(schema: unknown, required: boolean, fields: Fields, input: SchemaConverter, deref: (node: unknown) => unknown): JsonTemplate {
  const members = objectMembers(schema, deref);
  if (members) {
    const template: Record<string, JsonTemplate> = {};
    for (const [name, member] of Object.entries(members.properties)) {
      const resolved = deref(member);
      if (isObject(resolved) && resolved.readOnly === true) continue;
      // The template always sends the body, so the members it must hold are required whether or not the body is.
      const field = fields.claim(name, 'body', input.convert(member), members.required.has(name));
      template[name] = `{${field}}`;
    }
    return template;
  }
  const field = fields.claim('body', 'body', input.convert(schema), required);
  return `{${field}}`;
}

/** The members of an object schema (allOf merged), or undefined for any other shape. */
function objectMembers(schema: unknown, deref: (node: unknown) => unknown, depth = 0): { properties: Record<string, unknown>; required: Set<string> } | undefined {
  const node = deref(schema);
  if (!isObject(node) || depth > 10 || node.oneOf || node.anyOf || node.not) return undefined;
  if (node.type !== undefined && node.type !== 'object') return undefined;
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    const members = objectMembers(part, deref, depth + 1);
    if (!members) return undefined;
    Object.assign(properties, members.properties);
    members.required.forEach((name) => required.add(name));
  }
  if (isObject(node.properties)) Object.assign(properties, node.properties);
  if (Array.isArray(node.required)) node.required.forEach((name) => typeof name === 'string' && required.add(name));
  if (!Object.keys(properties).length) return undefined;
  return { properties, required };
}

/** A list parameter sent as one value: the item's schema when it is a plain value, else any string. */
function scalar(items: JsonSchema): JsonSchema {
  const type = items.type;
  return typeof type === 'string' && ['string', 'integer', 'number', 'boolean'].includes(type) ? items : { type: 'string' };
}

/**
 * The schema of the first 2xx answer with JSON content, bounded in size by describing linked schemas fewer
 * levels deep; an answer only as binary or an event stream makes the operation unrunnable.
 */
function outputOf(operation: Node, deref: (node: unknown) => unknown, resolve: (ref: string) => unknown, notes: string[]): JsonSchema | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  for (const code of codes) {
    const response = deref(responses[code]);
    const content = isObject(response) && isObject(response.content) ? response.content : {};
    const types = Object.keys(content);
    if (!types.length) continue;
    const json = types.find((type) => JSON_MEDIA.test(type) || type === '*/*');
    if (!json) {
      if (types.some((type) => /event-stream/i.test(type))) throw new Unrunnable('answer', `it answers with a stream (${types[0]})`);
      if (!types.some((type) => TEXT_MEDIA.test(type))) throw new Unrunnable('answer', `it answers with binary content (${types[0]})`);
      notes.push(`it answers ${types[0]}: the run's output is the text.`);
      return undefined;
    }
    const schema = (content[json] as Node | undefined)?.schema;
    if (schema === undefined) return undefined;
    for (let depth = 3; depth >= 0; depth -= 1) {
      const converter = new SchemaConverter(resolve, { use: 'output', describe: LIMITS.outputDescription, maxRefDepth: depth, maxDefinitions: LIMITS.outputDefinitions });
      let converted: JsonSchema;
      try {
        converted = converter.convert(schema);
      } catch (err) {
        if (err instanceof TooManyDefinitions) continue;
        throw err;
      }
      const definitions = converter.definitionsUsed();
      const output = definitions ? { ...converted, definitions } : converted;
      if (!Object.keys(converted).length) return undefined;
      if (JSON.stringify(output).length > LIMITS.outputChars && depth > 0) continue;
      if (outputSchemaProblems(output).length) {
        notes.push(`its answer's schema is left out: ${outputSchemaProblems(output)[0].reason}.`);
        return undefined;
      }
      return output;
    }
  }
  return undefined;
}

/** `repos/get-content` → `repos.get-content`; `listPetsByOwner` → `list_pets_by_owner`. */
function operationName(operationId: string): string {
  return operationId
    .split(/[/.:\s]+/)
    .map(snakeWords)
    .filter(Boolean)
    .join('.');
}

/** Without an operationId: the method and the path's words, `{id}` as `by_id`: `get.pets.by_pet_id`. */
function pathName(ref: OperationRef): string {
  const words = ref.path
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{.+\}$/.test(segment) ? `by_${snakeWords(segment.slice(1, -1))}` : snakeWords(segment)))
    .filter(Boolean);
  return [ref.method.toLowerCase(), ...words].join('.');
}

/** A stable id: the name cut to 100 characters (a short hash of the operation keeps cut names apart); clashes get `_2`. */
function uniqueId(name: string, provider: string, used: Set<string>, ref: OperationRef): string {
  let id = `${provider}.${name || ref.method.toLowerCase()}`.replace(/\.{2,}/g, '.').replace(/\.$/, '');
  if (!/^[a-z0-9-]+(\.[a-z0-9_-]+)+$/.test(id)) id = `${provider}.${snakeWords(`${ref.method}_${ref.path}`) || 'operation'}`;
  if (id.length > LIMITS.idChars) id = `${id.slice(0, LIMITS.idChars - 9).replace(/[._-]+$/, '')}_${shortHash(`${ref.method} ${ref.path}`)}`;
  const base = id;
  for (let n = 2; used.has(id); n += 1) id = `${base.slice(0, LIMITS.idChars - 1 - String(n).length)}_${n}`;
  used.add(id);
  return id;
}

/** Each imported task is its own capability (the id in capability form), so it never joins another's routes unasked. */
function uniqueCapability(id: string, used: Set<string>): string {
  const base = id.replace(/-/g, '_').replace(/_{2,}/g, '_');
  let capability = base;
  for (let n = 2; used.has(capability); n += 1) capability = `${base}_${n}`;
  used.add(capability);
  return capability;
}

function shortHash(text: string): string {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash.toString(36).padStart(7, '0').slice(0, 7);
}

/** Tags and the path's words (not parameters or versions), lower-case, at most eight. */
function keywordsOf(tags: string[], path: string): string[] {
  const words = [
    ...tags.map((tag) => plainText(tag).toLowerCase().replace(/\s+/g, ' ').trim()),
    ...path
      .split('/')
      .filter((segment) => segment && !segment.includes('{') && !/^v\d+(\.\d+)*$/i.test(segment) && !/^\d+$/.test(segment) && !/^api$/i.test(segment))
      .map((segment) => segment.replace(/[-_.]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim()),
  ];
  return [...new Set(words.filter((word) => word && word.length <= 100))].slice(0, LIMITS.keywords);
}

/** Annotations the method says beyond what the kind implies (an action that only adds, a PUT or DELETE that repeats safely). */
function annotationsOf(kind: string, method: string): Record<string, unknown> {
  if (kind !== 'action') return {};
  if (method === 'POST') return { annotations: { destructive: false } };
  if (method === 'PUT' || method === 'DELETE') return { annotations: { idempotent: true } };
  return {};
}

/**
 * The credential check: a kept GET without required input, preferring the account's own record (a path
 * naming the user, me, account, profile or whoami), else the shortest such path. Its answer's `id` and
 * `login`/`username`/`name`/`email` become the account pointers when its schema has them.
 */
function probeFor(tasks: ImportedTask[]): ProviderProbe | undefined {
  const candidates = tasks.filter(({ task, operation }) => {
    const request = task.request as TaskRequest;
    const input = task.input as JsonSchema;
    return operation.method === 'GET' && !request.path.includes('{') && !(Array.isArray(input.required) && input.required.length);
  });
  const own = /(^|\/)(user|me|self|account|profile|whoami|myself|current[-_]?user)(\/|$)/i;
  const best =
    candidates.filter(({ operation }) => own.test(operation.path)).sort((a, b) => a.operation.path.length - b.operation.path.length)[0] ??
    [...candidates].sort((a, b) => a.operation.path.length - b.operation.path.length || (a.operation.path < b.operation.path ? -1 : 1))[0];
  if (!best) return undefined;
  const probe: ProviderProbe = { method: 'GET', path: best.operation.path };
  if (own.test(best.operation.path)) {
    const output = isObject(best.task.output) ? best.task.output : {};
    // The answer is often a linked schema (`$ref: '#/definitions/User'`): its members are in the definition.
    const linked = typeof output.$ref === 'string' && isObject(output.definitions) ? output.definitions[decodeURIComponent(output.$ref.replace('#/definitions/', '')).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    const record = isObject(linked) ? linked : output;
    const properties = isObject(record.properties) ? record.properties : {};
    const id = ['id', 'user_id', 'account_id', 'uuid'].find((name) => name in properties);
    const label = ['login', 'username', 'email', 'name', 'display_name'].find((name) => name in properties);
    if (id) probe.account_id = `/${id}`;
    if (label) probe.account_name = `/${label}`;
  }
  return probe;
}
