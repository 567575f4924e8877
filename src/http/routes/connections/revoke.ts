import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { revokeConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';

export const revokeConnectionRoute = (gateway: Gateway): ServerRoute => ({
  method: 'DELETE',
  path: '/v1/connections/{id}',
  options: { plugins: { gateway: { userTokens: true } }, validate: { params: Joi.object({ id: fields.pathId().required() }) } },
  handler: (request) => {
    const caller = callerOf(request);
    return revokeConnection(gateway, caller.organization.id, request.params.id as string, caller.principal);
  },
});
