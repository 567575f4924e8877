import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { getConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';

export const readConnectionRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/connections/{id}',
  options: { plugins: { gateway: { userTokens: true } }, validate: { params: Joi.object({ id: fields.pathId().required() }) } },
  handler: (request) => getConnection(gateway, callerOf(request), request.params.id as string),
});
