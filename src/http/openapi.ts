import type { RequestRoute, Server } from '@hapi/hapi';
import type Joi from 'joi';
import joiToJson from 'joi-to-json';
import { errorCodes, type ErrorCode } from '../domain/errors.js';
import { CATALOG_VERSION_HEADER } from './catalog-version.js';
import { HOSTED_PREFIX } from './errors.js';
import { problemRecord, records } from './records.js';

// The package is CommonJS whose module.exports is the function its types call `parse`.
const joiToJsonSchema = joiToJson as unknown as typeof joiToJson.parse;

/** What a route adds to its entry in the API document beyond its joi schemas. */
export interface RouteDocs {
  /** The error codes this route can answer besides the ones every route (or every authenticated route) can. */
  errors?: ErrorCode[];
  /** The request body, for a route that reads its body itself instead of having hapi validate it. */
  body?: Joi.Schema;
  /** A bearer secret of its own instead of the API's credentials (a security scheme of the document). */
  security?: keyof typeof components.securitySchemes;
}

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    openapi?: RouteDocs;
  }
}

/** The version of the API the document describes. */
export const API_VERSION = '0.0.1';

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

/** A client that does not finish its request in time gets request_timeout, whatever the route. */
const EVERY_ROUTE: ErrorCode[] = ['invalid_input', 'request_timeout', 'payload_too_large', 'internal_error'];
const AUTHENTICATED: ErrorCode[] = ['unauthenticated', 'invalid_token', 'no_active_organization', 'untrusted_origin', 'role_forbidden', 'rate_limited'];

const ref = (kind: 'schemas' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const components = {
  headers: {
    CatalogVersion: { description: 'the catalog version this answer was served with', schema: { type: 'string' } },
    RateLimit: { description: 'the remaining requests of this class in the current window and seconds until it resets', schema: { type: 'string' } },
    RateLimitPolicy: { description: 'the requests of this class allowed per window, and the window in seconds', schema: { type: 'string' } },
    RetryAfter: { description: 'seconds to wait before trying again', schema: { type: 'integer' } },
    Location: { description: 'where the browser goes next', schema: { type: 'string' } },
  },
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', description: 'an organization API key or a principal-bound token' },
    metricsToken: { type: 'http', scheme: 'bearer', description: "the operator's metrics.token (not an API credential)" },
  },
};

/** What every answer of a rate-limited route may carry. */
const RATE_LIMIT_HEADERS = { RateLimit: ref('headers', 'RateLimit'), 'RateLimit-Policy': ref('headers', 'RateLimitPolicy') };

/** joi to JSON Schema; named records (`.id()`) go to the shared components and are referenced. */
function toJsonSchema(schema: Joi.Schema, shared: Record<string, JsonSchema>): JsonSchema {
  const { schemas, ...json } = joiToJsonSchema(schema as never, 'open-api-3.1') as JsonSchema & { schemas?: Record<string, JsonSchema> };
  Object.assign(shared, schemas);
  return json;
}

const flagsOf = (schema: Joi.Schema) => (schema.describe().flags ?? {}) as { presence?: string; description?: string };

/** Path, query and header parameters from the route's joi objects (headers it does not name pass unchecked). */
/** The route's input schemas: hapi's, or those it checks in one pass (operation's `validate.inOnePass`). */
const inputs = (route: RequestRoute) => route.settings.plugins?.inputs ?? route.settings.validate ?? {};

function parameters(route: RequestRoute, shared: Record<string, JsonSchema>): JsonSchema[] {
  const validate = inputs(route);
  const sources = [
    ['path', validate.params],
    ['query', validate.query],
    ['header', validate.headers],
  ] as const;
  return sources.flatMap(([where, schema]) => {
    if (!schema || typeof schema !== 'object' || !('describe' in schema)) return [];
    const object = toJsonSchema(schema as Joi.Schema, shared) as { properties?: Record<string, JsonSchema>; required?: string[] };
    return Object.entries(object.properties ?? {}).map(([name, property]) => {
      const { description, ...rest } = property;
      return {
        name,
        in: where,
        required: where === 'path' || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
  });
}

function requestBody(route: RequestRoute, shared: Record<string, JsonSchema>): JsonSchema | undefined {
  const schema = route.settings.plugins?.openapi?.body ?? (inputs(route).payload as Joi.Schema | undefined);
  if (!schema || typeof schema !== 'object' || !('describe' in schema)) return undefined;
  const allowed = route.settings.payload?.allow;
  const mediaTypes = allowed ? [allowed].flat() : ['application/json'];
  const json = toJsonSchema(schema, shared);
  return { required: flagsOf(schema).presence === 'required', content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: json }])) };
}

function successResponse(schema: Joi.Schema, rateLimited: boolean, shared: Record<string, JsonSchema>): JsonSchema {
  const headers: Record<string, unknown> = { [CATALOG_VERSION_HEADER]: ref('headers', 'CatalogVersion') };
  if (rateLimited) Object.assign(headers, RATE_LIMIT_HEADERS);
  if (schema === records.seeOther) headers.Location = ref('headers', 'Location');
  const description = flagsOf(schema).description ?? 'success';
  if (flagsOf(schema).presence === 'forbidden') return { description, headers };
  const json = toJsonSchema(schema, shared);
  const mediaType = (json['x-media-type'] as string | undefined) ?? 'application/json';
  delete json['x-media-type'];
  return { description, headers, content: { [mediaType]: { schema: json } } };
}

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());

/**
 * One response per error status, naming the codes the route can answer with it, each with a name
 * (InvalidInput, UnauthenticatedOrInvalidToken, ...) under which routes answering the same codes share it.
 */
function errorResponses(codes: ErrorCode[], hosted: boolean, rateLimited: boolean): Record<string, { name: string; response: JsonSchema }> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCodes[code][0];
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  const responses: Record<string, { name: string; response: JsonSchema }> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = { [CATALOG_VERSION_HEADER]: ref('headers', 'CatalogVersion') };
    if (statusCodes.includes('rate_limited')) headers['Retry-After'] = ref('headers', 'RetryAfter');
    // Only a rate-limited route's 429 carries the budgets; elsewhere it is the organization's fair share.
    const fairShareOnly = statusCodes.includes('rate_limited') && !rateLimited;
    if (statusCodes.includes('rate_limited') && rateLimited) Object.assign(headers, RATE_LIMIT_HEADERS);
    const content = hosted
      ? { 'text/html': { schema: { type: 'string', description: 'an error page for a browser' } } }
      : { 'application/problem+json': { schema: { allOf: [ref('schemas', 'Problem'), { properties: { status: { const: status }, code: { enum: statusCodes } } }] } } };
    const name = statusCodes.map(pascal).join('Or') + (fairShareOnly ? 'ByFairShare' : '') + (hosted ? 'Page' : '');
    const description = `codes: ${statusCodes.join(', ')}${fairShareOnly ? ' (the organization\'s fair share)' : ''}`;
    responses[String(status)] = { name, response: { description, headers, content } };
  }
  return responses;
}

/** Routes that take a principal as a header or query parameter can refuse it. */
function takesPrincipal(route: RequestRoute): boolean {
  const keys = (schema: unknown) => Object.keys((schema as Joi.ObjectSchema | undefined)?.describe?.().keys ?? {});
  const validate = inputs(route);
  return keys(validate.headers).includes('svc-principal') || keys(validate.query).includes('principal');
}

function operation(route: RequestRoute, shared: Record<string, JsonSchema>, sharedResponses: Record<string, JsonSchema>): Operation {
  // Routes without an auth setting of their own use the server's default bearer strategy.
  const authenticated = (route.settings.auth as unknown) !== false;
  const hosted = route.path.startsWith(HOSTED_PREFIX);
  const docs = route.settings.plugins?.openapi;
  // A rate-limited route (plugins.rateLimit) answers 429 past its budgets too, and its answers carry the RateLimit headers.
  const rateLimited = route.settings.plugins?.rateLimit !== undefined;
  const codes: ErrorCode[] = [
    ...EVERY_ROUTE,
    ...(authenticated ? AUTHENTICATED : []),
    ...(takesPrincipal(route) ? (['principal_forbidden'] as const) : []),
    ...(docs?.errors ?? []),
    ...(rateLimited ? (['rate_limited'] as const) : []),
  ];
  const statuses = (route.settings.response?.status ?? {}) as Record<string, Joi.Schema>;
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(statuses)) responses[status] = successResponse(schema, rateLimited, shared);
  // A status both declared and an error status (a protocol's own 400 beside invalid_input) offers both bodies.
  for (const [status, { name, response: error }] of Object.entries(errorResponses(codes, hosted, rateLimited))) {
    const answer = responses[status] as { description: string; content?: object } | undefined;
    if (answer) {
      responses[status] = { ...error, description: `${answer.description}; ${error.description as string}`, content: { ...answer.content, ...(error.content as object) } };
    } else {
      sharedResponses[name] = error;
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  const body = requestBody(route, shared);
  const segment = route.path.split('/')[route.path.startsWith('/v1/') ? 2 : 1];
  return {
    tags: [hosted ? 'hosted' : segment],
    ...(route.settings.description ? { summary: route.settings.description } : {}),
    ...(route.settings.notes ? { description: [route.settings.notes].flat().join('\n') } : {}),
    security: docs?.security ? [{ [docs.security]: [] }] : authenticated ? [{ bearer: [] }] : [],
    parameters: parameters(route, shared),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** Code-point order, the same on every machine, so the generated client types never depend on a locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = <T>(entries: Record<string, T>) => Object.fromEntries(Object.entries(entries).sort(([a], [b]) => byText(a, b)));

/**
 * The OpenAPI 3.1 document of every route in the server's table, built from the routes' own joi
 * schemas, their declared answers (`response.status`) and errors (`plugins.openapi.errors`).
 */
export function apiDocument(server: Server, publicUrl: string): JsonSchema {
  const shared: Record<string, JsonSchema> = {};
  const sharedResponses: Record<string, JsonSchema> = {};
  toJsonSchema(problemRecord, shared);
  const paths: Record<string, Record<string, Operation>> = {};
  const routes = [...server.table()].sort((a, b) => byText(a.path, b.path) || byText(a.method, b.method));
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation(route, shared, sharedResponses);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Task gateway API',
      version: API_VERSION,
      description:
        'Discover, inspect and run third-party tasks with one token, audited and receipted. Errors are application/problem+json; ' +
        'every answer carries the svc-catalog-version header.',
    },
    servers: [{ url: publicUrl }],
    paths,
    components: { ...components, schemas: sorted(shared), responses: sorted(sharedResponses) },
  };
}
