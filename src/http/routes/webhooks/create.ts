import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { createWebhook } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const createWebhookRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/webhooks',
  options: {
    response: answers({ 200: records.webhookCreated }),
    plugins: { gateway: { role: 'admin' }, rateLimit: { class: 'webhooks' }, openapi: { errors: ['webhook_limit_reached', 'webhook_target_refused'] } },
    // Any well-formed URL passes here: a non-HTTPS scheme is 422 webhook_target_refused (docs/webhooks.md), decided by the domain.
    validate: { payload: Joi.object<{ url: string }>({ url: fields.text(2000).uri().required() }).required() },
  },
  async handler(request) {
    return createWebhook(gateway, callerOf(request).organization.id, request.payload.url);
  },
});
