import { InputRefused, RequestOutsideProvider } from './errors.js';
import type { JsonTemplate, Provider, TaskRequest } from './shapes.js';
import { pathFieldProblems, templateText } from './templates.js';
import { withoutHopByHop, type UpstreamLimits, type UpstreamRequest } from './upstream.js';

const FIELD = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const EXACT_FIELD = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** A probe's answer is one account record: an internal safety cap, not a product limit. */
const PROBE_MAX_RESPONSE_BYTES = 1024 * 1024;

type Input = Record<string, unknown>;

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** What every request to a provider starts from, worked out once per provider: its base URL's parts and its own headers. */
interface ProviderParts {
  /** The base URL without its trailing slashes. */
  base: string;
  origin: string;
  /** The base URL's path without its trailing slashes: a request's path must be it or under it. */
  basePath: string;
  /** The provider's headers, hop-by-hop ones left out, names lower-cased. */
  headers: Record<string, string>;
}

const partsOfProvider = new WeakMap<Provider, ProviderParts>();

function providerParts(provider: Provider): ProviderParts {
  let parts = partsOfProvider.get(provider);
  if (!parts) {
    const base = new URL(provider.base_url);
    parts = { base: provider.base_url.replace(/\/+$/, ''), origin: base.origin, basePath: base.pathname.replace(/\/+$/, ''), headers: lowerCased(provider.headers) };
    partsOfProvider.set(provider, parts);
  }
  return parts;
}

/**
 * Where a provider secret goes: the provider's template rendered into its header (e.g. Authorization:
 * "Bearer {secret}") or its query parameter for API keys, a bearer access token for OAuth2 providers.
 */
function applySecret(provider: Provider, secret: string, url: URL, headers: Record<string, string>): void {
  const { auth } = provider;
  if (auth.type === 'api_key') {
    const value = auth.template.split('{secret}').join(secret);
    if (auth.query) url.searchParams.set(auth.query, value);
    else headers[auth.header!.toLowerCase()] = value;
    return;
  }
  headers.authorization = `Bearer ${secret}`;
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  return headers ? Object.fromEntries(Object.entries(withoutHopByHop(headers)).map(([name, value]) => [name.toLowerCase(), value])) : {};
}

/**
 * The last guard before a credential leaves: the URL must stay under the provider's base URL (same origin,
 * inside its path). Path fields are single encoded segments, so only a template itself could break this.
 */
function underBaseUrl(provider: Provider, parts: ProviderParts, url: URL): URL {
  const { origin, basePath } = parts;
  if (url.origin !== origin || !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
    throw new RequestOutsideProvider(`${provider.slug}: the request path leaves ${provider.base_url}; nothing was sent`);
  }
  return url;
}

function startRequest(provider: Provider, method: string, path: string, templateHeaders: Record<string, string> | undefined) {
  const parts = providerParts(provider);
  const url = underBaseUrl(provider, parts, new URL(`${parts.base}/${path.replace(/^\/+/, '')}`));
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'task-gateway',
    ...parts.headers,
    ...lowerCased(templateHeaders),
  };
  return { url, headers, method };
}

/** `{field}` exactly is the input value (absent: left out); inside a longer string it is interpolated. */
function renderTemplate(template: JsonTemplate, input: Input): JsonTemplate | undefined {
  if (typeof template === 'string') {
    const exact = EXACT_FIELD.exec(template);
    if (exact) return absent(input[exact[1]]) ? undefined : (input[exact[1]] as JsonTemplate);
    return template.replace(FIELD, (_match, field: string) => (absent(input[field]) ? '' : templateText(input[field])));
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, input)).filter((item) => item !== undefined) as JsonTemplate[];
  if (template && typeof template === 'object') {
    const keys = Object.keys(template);
    if (keys.length === 1 && keys[0] === '$base64url') {
      const rendered = renderTemplate(template.$base64url, input);
      return Buffer.from(typeof rendered === 'string' ? rendered : templateText(rendered), 'utf8').toString('base64url');
    }
    const out: Record<string, JsonTemplate> = {};
    for (const key of keys) {
      const value = renderTemplate(template[key], input);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return template;
}

/** application/x-www-form-urlencoded with nested keys in brackets (`metadata[order]=7`, `items[0][price]=x`). */
function formEncode(value: unknown): string {
  const params = new URLSearchParams();
  const add = (prefix: string, node: unknown) => {
    if (absent(node)) return;
    if (Array.isArray(node)) node.forEach((item, index) => add(`${prefix}[${index}]`, item));
    else if (typeof node === 'object') for (const [key, item] of Object.entries(node as Input)) add(prefix ? `${prefix}[${key}]` : key, item);
    else params.append(prefix, String(node));
  };
  add('', value);
  return params.toString();
}

/**
 * Renders a task's request template (docs/catalog.md): `{field}` in the path is the
 * input field as one percent-encoded segment (`/` included; empty, `.` and `..` refused), in the query
 * the input field URL-encoded; a query entry naming an absent field is left out; POST, PUT and PATCH send
 * the rendered body template, or the input minus the fields the path used, as JSON or as a form.
 */
export function buildTaskRequest(provider: Provider, template: TaskRequest, input: Input, secret: string | undefined, limits: UpstreamLimits): UpstreamRequest {
  const problems = pathFieldProblems(template.path, input);
  if (problems.length) throw new InputRefused(`the request path cannot be built: ${problems.map((p) => `${p.name} ${p.reason}`).join('; ')}`, problems);
  const pathFields = new Set<string>();
  const path = template.path.replace(FIELD, (_match, field: string) => {
    pathFields.add(field);
    return encodeURIComponent(templateText(input[field]));
  });
  const { url, headers, method } = startRequest(provider, template.method, path, template.headers);
  for (const [name, valueTemplate] of Object.entries(template.query ?? {})) {
    let missing = false;
    const value = valueTemplate.replace(FIELD, (_match, field: string) => {
      if (absent(input[field])) missing = true;
      return missing ? '' : templateText(input[field]);
    });
    if (!missing) url.searchParams.append(name, value);
  }
  if (secret !== undefined) applySecret(provider, secret, url, headers);
  const upstream: UpstreamRequest = { method, url: url.toString(), headers, ...limits };
  if (WITH_BODY.has(method)) {
    const body =
      template.body !== undefined
        ? renderTemplate(template.body, input)
        : Object.fromEntries(Object.entries(input).filter(([field]) => !pathFields.has(field)));
    // A Content-Type the task declares (Slack's "application/json; charset=utf-8") is sent as declared.
    if (template.body_encoding === 'form') {
      upstream.body = formEncode(body);
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else {
      upstream.body = JSON.stringify(body ?? null);
      headers['content-type'] ??= 'application/json';
    }
  }
  return upstream;
}

/** The provider's credential check (its `probe`), carrying the secret being checked. */
export function buildProbeRequest(provider: Provider, secret: string, timeoutMs: number): UpstreamRequest {
  const probe = provider.probe!;
  const { url, headers, method } = startRequest(provider, probe.method, probe.path, undefined);
  applySecret(provider, secret, url, headers);
  return { method, url: url.toString(), headers, timeoutMs, maxResponseBytes: PROBE_MAX_RESPONSE_BYTES };
}
