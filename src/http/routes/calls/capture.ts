import type { ServerRoute } from '@hapi/hapi';
import { getCapture } from '../../../domain/audit/calls.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const readCaptureRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/calls/{id}/capture',
  options: { response: answers({ 200: records.capture }), plugins: { openapi: { errors: ['capture_not_found'] } }, validate: { params: fields.idParams() } },
  // The capture comes as JSON text: its values are sent as stored, never parsed on the way.
  handler: async (request, h) => h.response(await getCapture(gateway, callerOf(request).organization.id, request.params.id)).type('application/json'),
});
