import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { getOAuthApp } from '../../../domain/oauth-apps.js';
import { callerOf } from '../../auth.js';
import { slugParams } from './params.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

export const getOAuthAppRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/providers/{slug}/oauth-app',
  options: { response: answers({ 200: records.oauthApp }), plugins: { openapi: { errors: ['provider_not_found', 'oauth_app_not_found'] } }, validate: { params: slugParams } },
  handler: (request) => getOAuthApp(gateway, callerOf(request).organization.id, request.params.slug),
});
