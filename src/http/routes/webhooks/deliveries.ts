import type { ServerRoute } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { listDeliveries } from '../../../domain/webhooks/webhooks.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listDeliveriesRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  options: { response: answers({ 200: records.webhookDeliveryList }), plugins: { openapi: { errors: ['webhook_not_found'] } }, validate: { params: fields.idParams() } },
  handler: async (request) => ({
    deliveries: await listDeliveries(gateway, callerOf(request).organization.id, request.params.id),
  }),
});
