import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { createConnectionsPage } from '../../../domain/consent/connections-page.js';
import { invalidInput } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { actingPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const createConnectionsPageRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/connect/connections-pages',
  options: {
    response: answers({ 201: records.connectionsPageCreated }),
    plugins: { gateway: { userTokens: true }, openapi: { errors: ['principal_forbidden'] } },
    validate: { payload: Joi.object<{ principal?: string }>({ principal: fields.principal() }).required() },
  },
  handler(request, h) {
    const caller = callerOf(request);
    // A principal-bound token's page is its own principal's. A key must say whose page it hands out: a link
    // meant for an end user must never default to the organization's connections.
    if (caller.kind === 'api_key' && request.payload.principal === undefined) {
      throw invalidInput('"principal" is required with an organization key: name whose connections the page lists', [
        { name: 'payload.principal', reason: 'is required with an organization key' },
      ]);
    }
    const principal = actingPrincipal(caller, request.payload.principal);
    return h.response(createConnectionsPage(gateway, caller, principal)).code(201);
  },
});
