import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { decideApproval, showApproval } from './approval.js';
import { callback } from './callback.js';
import { showConnectionsPage, revokeOnConnectionsPage } from './connections-page.js';
import { continueConsent, showConsent } from './consent.js';
import { registerHostedCookies } from './cookies.js';
import { retry } from './retry.js';

/**
 * The browser pages under /v1/hosted/ (no bearer token): the consent flow, the connections page and the
 * approval page.
 * Their errors are rendered as pages by renderHostedError (wired in src/http/server.ts).
 */
export const hostedRoutes: Plugin<Gateway> = {
  name: 'hosted',
  register(server, gateway) {
    registerHostedCookies(server, gateway);
    server.route([
      showConsent(gateway),
      continueConsent(gateway),
      callback(gateway),
      retry(gateway),
      showConnectionsPage(gateway),
      revokeOnConnectionsPage(gateway),
      showApproval(gateway),
      decideApproval(gateway),
    ]);
  },
};
