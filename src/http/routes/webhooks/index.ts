import type { Plugin } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { createWebhookRoute } from './create.js';
import { deleteWebhookRoute } from './delete.js';
import { listDeliveriesRoute } from './deliveries.js';
import { listWebhooksRoute } from './list.js';

/** Webhooks: admin and owner keys register and delete them, any organization key reads them; tokens cannot. */
export const webhookRoutes: Plugin<Gateway> = {
  name: 'webhooks',
  register(server, gateway) {
    server.route([createWebhookRoute(gateway), listWebhooksRoute(gateway), deleteWebhookRoute(gateway), listDeliveriesRoute(gateway)]);
  },
};
