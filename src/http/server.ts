import type { Server } from '@hapi/hapi';
import type { Gateway } from '../domain/gateway.js';
import { registerAuth } from './auth.js';
import { baseServer, type ServerOptions } from './base-server.js';
import { registerCatalogVersion } from './catalog-version.js';
import { rejectDeepBodies } from './deep-bodies.js';
import { registerFairShare } from './fair-share.js';
import { registerMetrics } from './metrics.js';
import { registerRateLimits } from './rate-limits.js';
import { routePlugins } from './routes/index.js';

export { shutdown, type ServerOptions } from './base-server.js';

/**
 * What the base server lacks: authentication, each organization's fair share, rate limits, metrics and every route but /health. The catalog
 * version is stamped again after the rate limits, whose answer (a 429) may replace the response.
 */
export async function addGateway(server: Server, gateway: Gateway): Promise<void> {
  registerAuth(server, gateway, registerFairShare(server, gateway));
  registerRateLimits(server, gateway);
  registerCatalogVersion(server, gateway.catalog.version);
  rejectDeepBodies(server, gateway);
  registerMetrics(server, gateway);
  for (const plugin of routePlugins) await server.register({ plugin, options: gateway });
}

export async function createServer(gateway: Gateway, options: ServerOptions = {}): Promise<Server> {
  const server = baseServer(gateway, options);
  await addGateway(server, gateway);
  return server;
}

