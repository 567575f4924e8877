import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { deleteOAuthAppRoute } from './delete.js';
import { getOAuthAppRoute } from './get.js';
import { putOAuthAppRoute } from './put.js';

/** An organization's own OAuth app per provider (/v1/providers/{slug}/oauth-app); the secret never comes back. */
export const oauthAppRoutes: Plugin<Gateway> = {
  name: 'oauth-apps',
  register(server, gateway) {
    server.route([getOAuthAppRoute(gateway), putOAuthAppRoute(gateway), deleteOAuthAppRoute(gateway)]);
  },
};
