import type { Gateway } from '../../../domain/gateway.js';
import { newUserBoundToken } from '../../../domain/contracts/tokens.js';
import { issueUserToken } from '../../../domain/tokens.js';
import { callerOf } from '../../auth.js';
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
      payload: newUserBoundToken.required(),
    },
  },
  async handler(request, h) {
    const caller = callerOf(request);
    const token = await issueUserToken(gateway, caller.organization.id, request.payload, caller.credentialId);
    return h.response(token).code(201);
  },
  });
