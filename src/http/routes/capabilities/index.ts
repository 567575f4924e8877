import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { getCapabilityRoute } from './get.js';

export const capabilityRoutes: Plugin<Gateway> = {
  name: 'capabilities',
  register(server, gateway) {
    server.route([getCapabilityRoute(gateway)]);
  },
};
