import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { deleteWebhook } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';

export const deleteWebhookRoute = (gateway: Gateway): ServerRoute => ({
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  options: {
    plugins: { gateway: { role: 'admin' } },
    validate: { params: Joi.object({ id: fields.pathId().required() }) },
  },
  handler: (request) => deleteWebhook(gateway.db, callerOf(request).organization.id, request.params.id as string),
});
