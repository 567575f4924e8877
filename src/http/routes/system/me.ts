import type { ServerRoute } from '@hapi/hapi';
import { describeCaller } from '../../../domain/callers.js';
import { callerOf } from '../../auth.js';
import { answers, records } from '../../records.js';

export const me = (): ServerRoute => ({
  method: 'GET',
  path: '/v1/me',
  options: { response: answers({ 200: records.caller }), plugins: { gateway: { userTokens: true } } },
  handler: (request) => describeCaller(callerOf(request)),
});
