import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { listHeldTokens } from '../../../domain/tokens.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { answers, records } from '../../records.js';

export const listTokens = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/tokens',
  options: { response: answers({ 200: records.heldTokens }), validate: { query: Joi.object({ cursor: fields.cursor() }) } },
  handler: (request) => listHeldTokens(gateway.db, callerOf(request).organization.id, request.query.cursor as string | undefined),
});
