import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { getProviderRoute } from './get.js';
import { listProvidersRoute } from './list.js';

/** Providers of the catalog (and, beside them, each organization's OAuth app per provider). */
export const providerRoutes: Plugin<Gateway> = {
  name: 'providers',
  register(server, gateway) {
    server.route([listProvidersRoute(gateway), getProviderRoute(gateway)]);
  },
};
