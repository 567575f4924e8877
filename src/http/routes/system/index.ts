import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { me } from './me.js';
import { openapi } from './openapi.js';
import { problem } from './problem.js';

export const systemRoutes: Plugin<Gateway> = {
  name: 'system',
  register(server, gateway) {
    server.route([me(), openapi(gateway), problem()]);
  },
};
