import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { listPrincipals } from '../../../domain/principal-directory.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listPrincipalsRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/principals',
  options: {
    response: answers({ 200: records.principalList }),
    validate: {
      query: Joi.object<{ q?: string; cursor?: string }>({
        // This cursor wraps a principal (up to 140 characters), so it is longer than the id-based ones.
        cursor: fields.text(200),
        q: fields.text(140),
      }),
    },
  },
  handler: (request) => listPrincipals(gateway, callerOf(request).organization.id, request.query),
});
