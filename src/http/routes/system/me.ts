import type { ServerRoute } from '@hapi/hapi';
import { describeCaller } from '../../../domain/callers.js';
import { callerOf } from '../../auth.js';

export const me = (): ServerRoute => ({
  method: 'GET',
  path: '/v1/me',
  options: { plugins: { gateway: { userTokens: true } } },
  handler: (request) => describeCaller(callerOf(request)),
});
