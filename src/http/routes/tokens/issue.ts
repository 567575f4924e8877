import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { issueUserToken, TOKEN_LIFETIME, type NewUserBoundToken } from '../../../domain/tokens.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const issueToken = (gateway: Gateway) =>
  operation({
  method: 'POST',
  path: '/v1/tokens',
  options: {
    response: answers({ 201: records.userBoundToken }),
    plugins: { rateLimit: { class: 'tokens' } },
    validate: {
      payload: Joi.object<NewUserBoundToken>({
        principal: fields.principal().required(),
        expires_in: Joi.number().strict().integer().min(TOKEN_LIFETIME.min).max(TOKEN_LIFETIME.max),
      }).required(),
    },
  },
  async handler(request, h) {
    const caller = callerOf(request);
    const token = await issueUserToken(gateway.db, caller.organization.id, request.payload, caller.credentialId);
    return h.response(token).code(201);
  },
  });
