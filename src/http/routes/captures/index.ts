import type { Plugin, ServerRoute } from '@hapi/hapi';
import { listCaptures } from '../../../domain/audit/calls.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

const listCapturesRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/captures',
  options: { response: answers({ 200: records.captureList }), validate: { query: fields.pageQuery() } },
  // The list comes as JSON text: captured values are sent as stored, never parsed on the way.
  handler: async (request, h) => h.response(await listCaptures(gateway, callerOf(request).organization.id, request.query.cursor)).type('application/json'),
});

/** Captured inputs and outputs of calls: organization keys only. */
export const captureRoutes: Plugin<Gateway> = {
  name: 'captures',
  register(server, gateway) {
    server.route([listCapturesRoute(gateway)]);
  },
};
