import type { ServerRoute } from '@hapi/hapi';
import { getCall } from '../../../domain/audit/calls.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const readCallRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/calls/{id}',
  options: { response: answers({ 200: records.call }), plugins: { openapi: { errors: ['call_not_found'] } }, validate: { params: fields.idParams() } },
  handler: (request) => getCall(gateway, callerOf(request).organization.id, request.params.id),
});
