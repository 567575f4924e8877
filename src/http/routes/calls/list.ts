import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { listCalls, type CallFilters } from '../../../domain/audit/calls.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

const callQuery = Joi.object<CallFilters & { cursor?: string }>({
  cursor: fields.cursor(),
  task: fields.text(100),
  provider: fields.text(100),
  principal: fields.principal(),
  outcome: fields.oneOf('hit', 'miss', 'fault', 'pending'),
  token: fields.text(100),
  connection: fields.text(100),
  tag: fields.text(200),
});

export const listCallsRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/calls',
  options: { response: answers({ 200: records.callList }), validate: { query: callQuery } },
  handler: (request) => {
    const { cursor, ...filters } = request.query;
    return listCalls(gateway, callerOf(request).organization.id, filters, cursor);
  },
});
