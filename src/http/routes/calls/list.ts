import type { ServerRoute } from '@hapi/hapi';
import { listCalls } from '../../../domain/audit/calls.js';
import { callQuery } from '../../../domain/contracts/calls.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const listCallsRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/calls',
  options: { response: answers({ 200: records.callList }), validate: { query: callQuery } },
  handler: (request) => {
    const { cursor, ...filters } = request.query;
    return listCalls(gateway, callerOf(request).organization.id, filters, cursor);
  },
});
