import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { deleteWebhook } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const deleteWebhookRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  options: {
    response: answers({ 200: records.webhook }),
    plugins: { gateway: { role: 'admin' }, openapi: { errors: ['webhook_not_found'] } },
    validate: { params: fields.idParams() },
  },
  handler: (request) => deleteWebhook(gateway, callerOf(request).organization.id, request.params.id),
});
