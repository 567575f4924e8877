import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { createConnectionsPageRoute } from './create-connections-page.js';
import { createSession } from './create-session.js';
import { getSession } from './get-session.js';
import { listSessions } from './list-sessions.js';

/** Connect sessions and connections pages: organization keys, and tokens for their own principal. */
export const connectRoutes: Plugin<Gateway> = {
  name: 'connect',
  register(server, gateway) {
    server.route([createSession(gateway), listSessions(gateway), getSession(gateway), createConnectionsPageRoute(gateway)]);
  },
};
