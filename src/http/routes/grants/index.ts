import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listGrantsRoute } from './list.js';

/** The organization's consents; organization keys only. */
export const grantRoutes: Plugin<Gateway> = {
  name: 'grants',
  register(server, gateway) {
    server.route([listGrantsRoute(gateway)]);
  },
};
