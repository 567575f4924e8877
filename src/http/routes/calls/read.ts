import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { getCall } from '../../../domain/audit/calls.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { answers, records } from '../../records.js';

export const readCallRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/calls/{id}',
  options: { response: answers({ 200: records.call }), plugins: { openapi: { errors: ['call_not_found'] } }, validate: { params: Joi.object({ id: fields.pathId().required() }) } },
  handler: (request) => getCall(gateway, callerOf(request).organization.id, request.params.id as string),
});
