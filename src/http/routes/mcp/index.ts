import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { mcpEndpoint } from './endpoint.js';

/** The MCP endpoint for agents; with mcp.enabled false it is not there at all (404 route_not_found). */
export const mcpRoutes: Plugin<Gateway> = {
  name: 'mcp',
  register(server, gateway) {
    if (!gateway.config.mcp.enabled) return;
    const cors = server.settings.routes?.cors;
    server.route(mcpEndpoint(gateway, typeof cors === 'object' ? (cors.additionalHeaders ?? []) : []));
  },
};
