import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { getRedirectUris, putRedirectUris } from '../connect/redirect-uris.js';

/**
 * The connect flow's redirect allowlist (/v1/connect/redirect-uris). Its routes sit beside the other
 * connect routes but register through this plugin, separately from the connect sessions plugin.
 */
export const redirectUriRoutes: Plugin<Gateway> = {
  name: 'redirect-uris',
  register(server, gateway) {
    server.route([getRedirectUris(gateway), putRedirectUris(gateway)]);
  },
};
