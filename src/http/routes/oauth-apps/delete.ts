import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { deleteOAuthApp } from '../../../domain/oauth-apps.js';
import { callerOf } from '../../auth.js';
import { slugParams } from './params.js';

export const deleteOAuthAppRoute = (gateway: Gateway): ServerRoute => ({
  method: 'DELETE',
  path: '/v1/providers/{slug}/oauth-app',
  options: { plugins: { gateway: { role: 'admin' } }, validate: { params: slugParams } },
  async handler(request, h) {
    await deleteOAuthApp(gateway, callerOf(request).organization.id, request.params.slug as string);
    return h.response().code(204);
  },
});
