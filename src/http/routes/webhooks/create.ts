import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { createWebhook } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { newWebhook } from '../../../domain/contracts/webhooks.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const createWebhookRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/webhooks',
  options: {
    response: answers({ 200: records.webhookCreated }),
    plugins: { gateway: { role: 'admin' }, rateLimit: { class: 'webhooks' }, openapi: { errors: ['webhook_limit_reached', 'webhook_target_refused'] } },
    validate: { payload: newWebhook.required() },
  },
  async handler(request) {
    return createWebhook(gateway, callerOf(request).organization.id, request.payload.url);
  },
});
