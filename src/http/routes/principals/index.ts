import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listPrincipalsRoute } from './list.js';

/** The principal directory; organization keys only (DESIGN.md section 3 keeps tokens to their own principal). */
export const principalRoutes: Plugin<Gateway> = {
  name: 'principals',
  register(server, gateway) {
    server.route([listPrincipalsRoute(gateway)]);
  },
};
