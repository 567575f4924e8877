import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { consumeRateLimit } from '../../../domain/rate-limits.js';
import { createWebhook } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';

export const createWebhookRoute = (gateway: Gateway): ServerRoute => ({
  method: 'POST',
  path: '/v1/webhooks',
  options: {
    plugins: { gateway: { role: 'admin' } },
    // Any well-formed URL passes here: DESIGN.md section 9 makes a non-HTTPS scheme 422 webhook_target_refused, decided by the domain.
    validate: { payload: Joi.object({ url: fields.text(2000).uri().required() }).required() },
  },
  async handler(request) {
    const caller = callerOf(request);
    await consumeRateLimit(gateway, 'webhooks', caller);
    return createWebhook(gateway, caller.organization.id, (request.payload as { url: string }).url);
  },
});
