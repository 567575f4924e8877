import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listPrincipalsRoute } from './list.js';

/** The principal directory; organization keys only (a principal-bound token acts only as its own principal). */
export const principalRoutes: Plugin<Gateway> = {
  name: 'principals',
  register(server, gateway) {
    server.route([listPrincipalsRoute(gateway)]);
  },
};
