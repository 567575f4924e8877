import type { Server } from '@hapi/hapi';
import type { Gateway } from '../domain/gateway.js';
import { baseServer, type ServerOptions } from './base-server.js';
import { boundHeapGrowth, collectWhenIdle } from './idle-collection.js';

export interface StartedServer {
  server: Server;
  /** Settles once the gateway's routes are in. */
  complete: Promise<void>;
}

/**
 * `gateway serve`'s server, listening before the route modules (the MCP SDK, the discovery engine, ...) load:
 * `GET /health` answers at once, with the catalog version as every answer; every other request waits, before
 * routing, until the routes are in, then goes on as it would have. A listen failure rejects and loads nothing.
 * V8's heap may grow only by half past what it holds live, and memory left by heavy work is collected once the
 * server is idle (idle-collection.ts).
 */
export async function startServer(gateway: Gateway, options: ServerOptions = {}): Promise<StartedServer> {
  let routesIn = false;
  const server = baseServer(gateway, options);
  boundHeapGrowth();
  collectWhenIdle(server);
  server.ext('onRequest', async (request, h) => {
    if (!routesIn && request.path !== '/health') await complete;
    return h.continue;
  });
  const listening = server.start();
  const complete = listening.then(async () => {
    const { addGateway } = await import('./server.js');
    await addGateway(server, gateway);
    routesIn = true;
  });
  // A held request sees a failure as its 500; the caller sees it through `complete`.
  complete.catch(() => undefined);
  await listening;
  return { server, complete };
}
