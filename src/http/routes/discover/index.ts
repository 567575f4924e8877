import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { discover } from './discover.js';

export const discoverRoutes: Plugin<Gateway> = {
  name: 'discover',
  register(server, gateway) {
    // The index (and the word vectors and English model it reads) is built on the first discovery, not at start:
    // a gateway that is never asked to discover never pays for it.
    server.route([discover(gateway)]);
  },
};
