import { PLACEHOLDER } from './schema.js';
import type { JsonTemplate, Provider, Task } from './types.js';

/** An upstream request ready to send: the caller adds nothing but transport. */
export interface RenderedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

type Input = Record<string, unknown>;

/** Some providers (GitHub, Wikipedia) refuse requests without a User-Agent; a provider's headers may replace it. */
const baseHeaders = { accept: 'application/json', 'user-agent': 'task-gateway' };

/** Input fields a template string names, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

function present(input: Input, field: string): boolean {
  return input[field] !== undefined && input[field] !== null;
}

function asText(value: unknown): string {
  if (Array.isArray(value)) return value.map(asText).join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Renders `{field}`s into a string, or undefined when a named field is absent (the entry is then left out). */
function interpolate(template: string, input: Input, encode: (text: string) => string = (t) => t): string | undefined {
  if (!placeholdersOf(template).every((field) => present(input, field))) return undefined;
  return template.replace(PLACEHOLDER, (_match, field: string) => encode(asText(input[field])));
}

const BASE64URL = '$base64url';

/** docs/catalog.md "Body templates": whole-value placeholders keep the input's JSON type. */
function renderTemplate(template: JsonTemplate, input: Input): unknown {
  if (typeof template === 'string') {
    const whole = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(template);
    if (whole) return present(input, whole[1]) ? input[whole[1]] : undefined;
    return interpolate(template, input);
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, input)).filter((item) => item !== undefined);
  if (template && typeof template === 'object') {
    const keys = Object.keys(template);
    if (keys.length === 1 && keys[0] === BASE64URL) {
      const text = renderTemplate(template[BASE64URL], input);
      return text === undefined ? undefined : Buffer.from(String(text), 'utf8').toString('base64url');
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const value = renderTemplate(template[key], input);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return template;
}

/** application/x-www-form-urlencoded with nested keys in brackets (`metadata[plan]=pro`, `items[0][price]=x`). */
function formEncode(value: unknown, prefix = '', pairs: Array<[string, string]> = []): Array<[string, string]> {
  if (value === undefined || value === null) return pairs;
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) formEncode(item, prefix ? `${prefix}[${key}]` : key, pairs);
  } else {
    pairs.push([prefix, String(value)]);
  }
  return pairs;
}

function bodyOf(task: Task, input: Input): string | undefined {
  const request = task.request!;
  if (!['POST', 'PUT', 'PATCH'].includes(request.method)) return undefined;
  const pathFields = new Set(placeholdersOf(request.path));
  const value =
    request.body !== undefined
      ? renderTemplate(request.body, input)
      : Object.fromEntries(Object.entries(input).filter(([field]) => !pathFields.has(field)));
  return request.body_encoding === 'form' ? new URLSearchParams(formEncode(value)).toString() : JSON.stringify(value);
}

/**
 * The upstream request of a task for a validated input (DESIGN.md section 4 and docs/catalog.md): path
 * fields URL-encoded, query entries with an absent field left out, the body for POST, PUT and PATCH,
 * the provider's and task's static headers, and, given a secret, the provider's auth.
 */
export function renderRequest(provider: Provider, task: Task, input: Input, secret?: string): RenderedRequest {
  const request = task.request;
  if (!request) throw new Error(`task ${task.id} has no upstream request`);
  const query = new URLSearchParams();
  for (const [name, template] of Object.entries(request.query ?? {})) {
    const value = interpolate(template, input);
    if (value !== undefined) query.append(name, value);
  }
  const headers: Record<string, string> = { ...baseHeaders, ...lower(provider.headers), ...lower(request.headers) };
  const body = bodyOf(task, input);
  if (body !== undefined) {
    headers['content-type'] = request.body_encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json; charset=utf-8';
  }
  // The loader makes every path field required or defaulted, so a validated input always fills the path.
  const path = interpolate(request.path, input, encodeURIComponent);
  if (path === undefined) throw new Error(`input for ${task.id} lacks a path field of ${request.path}`);
  const rendered = { method: request.method, url: joinUrl(provider.base_url, path, query), headers, body };
  return secret === undefined ? rendered : withCredential(provider, rendered, secret);
}

/** The probe request that checks a credential (POST /v1/connections): the provider's headers and auth. */
export function renderProbe(provider: Provider, secret: string): RenderedRequest {
  if (!provider.probe) throw new Error(`provider ${provider.slug} declares no probe`);
  const rendered = {
    method: provider.probe.method,
    url: joinUrl(provider.base_url, provider.probe.path, new URLSearchParams()),
    headers: { ...baseHeaders, ...lower(provider.headers) },
  };
  return withCredential(provider, rendered, secret);
}

/** Puts a secret where the provider's auth says: an OAuth2 bearer token, or the API key's header or query parameter. */
export function withCredential(provider: Provider, request: RenderedRequest, secret: string): RenderedRequest {
  const { auth } = provider;
  if (auth.type === 'none') return request;
  if (auth.type === 'oauth2') return { ...request, headers: { ...request.headers, authorization: `Bearer ${secret}` } };
  const value = auth.template.replace('{secret}', secret);
  if (auth.header) return { ...request, headers: { ...request.headers, [auth.header.toLowerCase()]: value } };
  const url = new URL(request.url);
  url.searchParams.set(auth.query!, value);
  return { ...request, url: url.toString() };
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

function joinUrl(base: string, path: string, query: URLSearchParams): string {
  const [pathPart, staticQuery] = path.split('?', 2);
  const all = new URLSearchParams(staticQuery);
  for (const [name, value] of query) all.append(name, value);
  const search = all.toString();
  return `${base.replace(/\/+$/, '')}${pathPart}${search ? `?${search}` : ''}`;
}
