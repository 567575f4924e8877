import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { issueToken } from './issue.js';
import { listTokens } from './list.js';
import { revokeToken } from './revoke.js';

/** Principal-bound tokens: organization keys of any role issue, list and revoke them; tokens cannot. */
export const tokenRoutes: Plugin<Gateway> = {
  name: 'tokens',
  register(server, gateway) {
    server.route([issueToken(gateway), listTokens(gateway), revokeToken(gateway)]);
  },
};
