import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { getTaskRoute } from './get.js';
import { listTasksRoute } from './list.js';
import { runTaskRoute } from './run.js';

/** Tasks: list, inspect (and run, beside them). */
export const taskRoutes: Plugin<Gateway> = {
  name: 'tasks',
  register(server, gateway) {
    server.route([listTasksRoute(gateway), getTaskRoute(gateway), runTaskRoute(gateway)]);
  },
};
