import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, paths } from './schema.js';

export interface ClientOptions {
  /** Where the gateway is served, e.g. https://gateway.example.com (the paths carry /v1 themselves). */
  baseUrl: string;
  /** An organization API key or a principal-bound token, sent as `Authorization: Bearer`. */
  token: string;
  /** Replaces the global fetch, e.g. for a proxy or a test. */
  fetch?: typeof globalThis.fetch;
}

export type GatewayClient = Client<paths>;

/**
 * A typed client of the gateway's API: `client.GET('/v1/tasks/{id}', { params: { path: { id } } })`
 * answers `{ data }` on success or `{ error }` with the problem+json body, both typed from /v1/openapi.json.
 */
export function createClient({ baseUrl, token, fetch }: ClientOptions): GatewayClient {
  return createFetchClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` }, ...(fetch ? { fetch } : {}) });
}
