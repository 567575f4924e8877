import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { listConnections } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { answers, records } from '../../records.js';

export const listConnectionsRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/connections',
  options: {
    response: answers({ 200: records.connectionList }),
    plugins: { gateway: { userTokens: true } },
    validate: { query: Joi.object({ principal: fields.principal(), provider: fields.text(100), cursor: fields.cursor() }) },
  },
  handler: (request) => listConnections(gateway, callerOf(request), request.query),
});
