import type { Server } from '@hapi/hapi';
import type { Gateway } from '../domain/gateway.js';
import { baseServer, type GatewayEssentials, type ServerOptions } from './base-server.js';

export interface StartedServer {
  server: Server;
  /** Settles once the gateway's routes are in, or the gateway could not be loaded. */
  complete: Promise<Gateway>;
}

/**
 * `gateway serve`'s server, listening before the gateway is loaded (its catalog takes seconds when large):
 * `GET /health` answers at once; every other request waits, before routing, until `load` has given the
 * gateway and its routes are in, then goes on as it would have, or is answered 500 when loading failed (the
 * process then stops). `load` starts once the port is bound; a listen failure rejects and loads nothing.
 */
export async function startServer(essentials: GatewayEssentials, load: () => Promise<Gateway>, options: ServerOptions = {}): Promise<StartedServer> {
  let loaded: Gateway | undefined;
  let routesIn = false;
  const server = baseServer(essentials, () => loaded?.catalog.version, options);
  server.ext('onRequest', async (request, h) => {
    if (!routesIn && request.path !== '/health') await complete;
    return h.continue;
  });
  const listening = server.start();
  const complete = listening.then(load).then(async (gateway) => {
    loaded = gateway;
    // The route modules (the MCP SDK, the discovery engine, ...) load only now, after the port is bound.
    const { addGateway } = await import('./server.js');
    await addGateway(server, gateway);
    routesIn = true;
    return gateway;
  });
  // A held request sees a failure as its 500; the caller sees it through `complete`.
  complete.catch(() => undefined);
  await listening;
  return { server, complete };
}

