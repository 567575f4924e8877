import type { Plugin } from '@hapi/hapi';
import { indexFor } from '../../../domain/discovery/engine.js';
import type { Gateway } from '../../../domain/gateway.js';
import { discover } from './discover.js';

export const discoverRoutes: Plugin<Gateway> = {
  name: 'discover',
  register(server, gateway) {
    // Built at start, so the first request of a large catalog does not pay for the index.
    indexFor(gateway.catalog);
    server.route([discover(gateway)]);
  },
};
