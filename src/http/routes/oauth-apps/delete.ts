import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { deleteOAuthApp } from '../../../domain/oauth-apps.js';
import { callerOf } from '../../auth.js';
import { slugParams } from './params.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

export const deleteOAuthAppRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'DELETE',
  path: '/v1/providers/{slug}/oauth-app',
  options: { response: answers({ 204: records.empty }), plugins: { gateway: { role: 'admin' }, openapi: { errors: ['provider_not_found', 'oauth_app_not_found'] } }, validate: { params: slugParams } },
  async handler(request, h) {
    await deleteOAuthApp(gateway, callerOf(request).organization.id, request.params.slug);
    return h.response().code(204);
  },
});
