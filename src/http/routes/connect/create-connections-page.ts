import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { createConnectionsPage } from '../../../domain/consent/connections-page.js';
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
    validate: { payload: Joi.object<{ principal: string }>({ principal: fields.principal().required() }).required() },
  },
  handler(request, h) {
    const caller = callerOf(request);
    const principal = actingPrincipal(caller, request.payload.principal);
    return h.response(createConnectionsPage(gateway, caller, principal)).code(201);
  },
});
