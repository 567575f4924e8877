import Joi from 'joi';
import { TASK_KINDS } from './types.js';

/**
 * The joi shapes of one catalog file (docs/catalog.md). Cross-file rules (a task's provider exists, ids are
 * unique, handlers exist, templates name input fields) are checked by the loader after merging.
 */

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
/** Lower-case dotted words, at least two: `weather.current`, `email.send`. */
export const CAPABILITY = /^[a-z0-9_]+(?:\.[a-z0-9_]+)+$/;
const text = (max: number) => Joi.string().trim().min(1).max(max);
const url = () => Joi.string().uri({ scheme: ['https', 'http'] }).max(2000);
const headerName = () => Joi.string().pattern(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'an HTTP header name');
const staticHeaders = () => Joi.object().pattern(headerName(), Joi.string().max(1000));

const auth = Joi.object({
  type: Joi.string().valid('none', 'api_key', 'oauth2').required(),
  header: Joi.when('type', { is: 'api_key', then: headerName(), otherwise: Joi.forbidden() }),
  query: Joi.when('type', { is: 'api_key', then: Joi.string().pattern(/^[A-Za-z0-9_.-]+$/, 'a query parameter name'), otherwise: Joi.forbidden() }),
  template: Joi.when('type', {
    is: 'api_key',
    then: Joi.string().max(200).pattern(/\{secret\}/, 'containing {secret}').default('{secret}'),
    otherwise: Joi.forbidden(),
  }),
  authorize_url: Joi.when('type', { is: 'oauth2', then: url().required(), otherwise: Joi.forbidden() }),
  token_url: Joi.when('type', { is: 'oauth2', then: url().required(), otherwise: Joi.forbidden() }),
  revoke_url: Joi.when('type', { is: 'oauth2', then: url(), otherwise: Joi.forbidden() }),
  scopes: Joi.when('type', { is: 'oauth2', then: Joi.array().items(text(200)).default([]), otherwise: Joi.forbidden() }),
  pkce: Joi.when('type', { is: 'oauth2', then: Joi.boolean().default(true), otherwise: Joi.forbidden() }),
  token_auth: Joi.when('type', { is: 'oauth2', then: Joi.string().valid('client_secret_basic', 'client_secret_post'), otherwise: Joi.forbidden() }),
  scope_separator: Joi.when('type', { is: 'oauth2', then: Joi.string().valid(' ', ','), otherwise: Joi.forbidden() }),
  authorize_params: Joi.when('type', { is: 'oauth2', then: Joi.object().pattern(/^[A-Za-z0-9_.-]+$/, Joi.string().max(200)), otherwise: Joi.forbidden() }),
})
  .when(Joi.object({ type: Joi.valid('api_key') }).unknown(), { then: Joi.object().xor('header', 'query') })
  .required();

const envName = () => Joi.string().pattern(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

export const providerSchema = Joi.object({
  slug: Joi.string().pattern(SLUG, 'a slug of a-z, 0-9 and -').required(),
  name: text(200).required(),
  description: text(1000),
  // The in-process `builtin` provider has no upstream.
  base_url: Joi.when('slug', { is: 'builtin', then: Joi.forbidden(), otherwise: url().required() }),
  auth,
  platform_credential: Joi.object({ env: envName().required() }),
  managed_oauth_app: Joi.object({ client_id_env: envName().required(), client_secret_env: envName().required() }),
  zero_retention: Joi.boolean().default(false),
  probe: Joi.object({
    method: Joi.string().valid('GET', 'POST').default('GET'),
    path: Joi.string().pattern(/^\//, 'starting with /').max(1000).required(),
    account_id: Joi.string().pattern(/^(\/.*)?$/, 'a JSON pointer'),
    account_name: Joi.string().pattern(/^(\/.*)?$/, 'a JSON pointer'),
  }),
  headers: staticHeaders(),
});

/** A later file may change where an already declared provider lives, and nothing else. */
export const providerOverrideSchema = Joi.object({
  slug: Joi.string().pattern(SLUG, 'a slug of a-z, 0-9 and -').required(),
  base_url: url().required(),
});

/** A `{$base64url: ...}` object must hold only a string template; anything else YAML or JSON gives is literal. */
function badBase64(template: unknown): boolean {
  if (Array.isArray(template)) return template.some(badBase64);
  if (!template || typeof template !== 'object') return false;
  const entries = Object.entries(template);
  if (entries.some(([key]) => key === '$base64url')) return entries.length !== 1 || typeof entries[0][1] !== 'string';
  return entries.some(([, value]) => badBase64(value));
}

const template = Joi.any().custom((value, helpers) => (badBase64(value) ? helpers.message({ custom: '{{#label}} has a $base64url that is not alone with a string template' }) : value));

const request = Joi.object({
  method: Joi.string().valid('GET', 'POST', 'PUT', 'PATCH', 'DELETE').required(),
  path: Joi.string().pattern(/^\//, 'starting with /').max(2000).required(),
  query: Joi.object().pattern(/^[^\s]+$/, Joi.string().allow('').max(2000)),
  headers: staticHeaders(),
  body: Joi.when('method', { is: Joi.valid('POST', 'PUT', 'PATCH'), then: template, otherwise: Joi.forbidden() }),
  body_encoding: Joi.when('method', { is: Joi.valid('POST', 'PUT', 'PATCH'), then: Joi.string().valid('json', 'form'), otherwise: Joi.forbidden() }),
});

export const taskSchema = Joi.object({
  id: Joi.string().pattern(/^[a-z0-9-]+(\.[a-z0-9_-]+)+$/, 'dotted: <provider>.<name>').max(100).required(),
  provider: Joi.string().pattern(SLUG, 'a provider slug').required(),
  capability: Joi.string().pattern(CAPABILITY, 'lower-case dotted words such as weather.current').max(100).required(),
  kind: Joi.string().valid(...TASK_KINDS).required(),
  title: text(200).required(),
  description: text(2000).required(),
  keywords: Joi.array().items(text(100)).default([]),
  price_usd: Joi.number().min(0).max(1000).precision(6).default(0),
  scopes: Joi.array().items(text(200)).default([]),
  input: Joi.object({ type: Joi.valid('object').required() }).unknown(true).required(),
  output: Joi.object().unknown(true),
  annotations: Joi.object({ read_only: Joi.boolean(), destructive: Joi.boolean(), idempotent: Joi.boolean() })
    .custom((declared, helpers) => (declared.read_only && declared.destructive ? helpers.message({ custom: '{{#label}} cannot be both read_only and destructive' }) : declared)),
  request,
  handler: Joi.string().max(100),
  not_found: Joi.string().valid('empty'),
  status: Joi.string().valid('active', 'retired', 'broken').default('active'),
});

export const synonymsSchema = Joi.array().items(Joi.array().items(text(100)).min(2));

/** The top level of a file; entries are checked one by one so each problem names its own entry. */
export const fileSchema = Joi.object({
  providers: Joi.array().items(Joi.object().unknown(true)).default([]),
  tasks: Joi.array().items(Joi.object().unknown(true)).default([]),
  synonyms: synonymsSchema.default([]),
});
