import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { apiDocument } from '../../openapi.js';
import { records } from '../../records.js';

/** The OpenAPI document of every route, built once from the route table on first request. */
export const openapi = (gateway: Gateway): ServerRoute => {
  let document: object | undefined;
  return {
    method: 'GET',
    path: '/v1/openapi.json',
    options: { auth: false, response: { status: { 200: records.openapiDocument }, sample: 0 } },
    handler: (request) => (document ??= apiDocument(request.server, gateway.config.server.public_url)),
  };
};
