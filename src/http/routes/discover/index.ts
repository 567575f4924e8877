import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { discover } from './discover.js';

export const discoverRoutes: Plugin<Gateway> = {
  name: 'discover',
  register(server, gateway) {
    server.route([discover(gateway)]);
  },
};
