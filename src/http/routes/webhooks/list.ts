import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listWebhooks } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { answers, records } from '../../records.js';

export const listWebhooksRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/webhooks',
  options: { response: answers({ 200: records.webhookList }) },
  handler: async (request) => ({ webhooks: await listWebhooks(gateway, callerOf(request).organization.id) }),
});
