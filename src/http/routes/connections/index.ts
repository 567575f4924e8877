import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { changeConnectionRoute } from './change.js';
import { createConnectionRoute } from './create.js';
import { listConnectionsRoute } from './list.js';
import { readConnectionRoute } from './read.js';
import { revokeConnectionRoute } from './revoke.js';

/** Connections: organization keys do everything; principal-bound tokens list, read and revoke their own. */
export const connectionRoutes: Plugin<Gateway> = {
  name: 'connections',
  register(server, gateway) {
    server.route([
      createConnectionRoute(gateway),
      listConnectionsRoute(gateway),
      readConnectionRoute(gateway),
      changeConnectionRoute(gateway),
      revokeConnectionRoute(gateway),
    ]);
  },
};
