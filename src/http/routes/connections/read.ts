import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { getConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { answers, records } from '../../records.js';

export const readConnectionRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/connections/{id}',
  options: { response: answers({ 200: records.connectionDetail }), plugins: { gateway: { userTokens: true }, openapi: { errors: ['connection_not_found'] } }, validate: { params: Joi.object({ id: fields.pathId().required() }) } },
  handler: (request) => getConnection(gateway, callerOf(request), request.params.id as string),
});
