import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { getOAuthApp } from '../../../domain/oauth-apps.js';
import { callerOf } from '../../auth.js';
import { slugParams } from './params.js';

export const getOAuthAppRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/providers/{slug}/oauth-app',
  options: { validate: { params: slugParams } },
  handler: (request) => getOAuthApp(gateway, callerOf(request).organization.id, request.params.slug as string),
});
