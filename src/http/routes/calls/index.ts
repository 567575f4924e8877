import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listCallsRoute } from './list.js';
import { readCallRoute } from './read.js';
import { readCaptureRoute } from './capture.js';

/** The audit trail of runs: organization keys only. */
export const callRoutes: Plugin<Gateway> = {
  name: 'calls',
  register(server, gateway) {
    server.route([listCallsRoute(gateway), readCallRoute(gateway), readCaptureRoute(gateway)]);
  },
};
