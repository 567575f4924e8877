import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { listGrants, type GrantState } from '../../../domain/grants.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listGrantsRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/grants',
  options: {
    response: answers({ 200: records.grantList }),
    validate: {
      query: Joi.object<{ principal?: string; state?: GrantState; cursor?: string }>({
        cursor: fields.cursor(),
        principal: fields.principal(),
        state: fields.oneOf<GrantState>('active', 'revoked'),
      }),
    },
  },
  handler: (request) =>
    listGrants(gateway, callerOf(request).organization.id, request.query),
});
