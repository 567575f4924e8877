import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { revokeConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { answers, records } from '../../records.js';

export const revokeConnectionRoute = (gateway: Gateway): ServerRoute => ({
  method: 'DELETE',
  path: '/v1/connections/{id}',
  options: { response: answers({ 200: records.connection }), plugins: { gateway: { userTokens: true }, openapi: { errors: ['connection_not_found'] } }, validate: { params: Joi.object({ id: fields.pathId().required() }) } },
  handler: (request) => {
    const caller = callerOf(request);
    return revokeConnection(gateway, caller.organization.id, request.params.id as string, caller.principal);
  },
});
