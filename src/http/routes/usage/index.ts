import type { Plugin, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { usage, USAGE_DAYS, type UsageDays } from '../../../domain/audit/usage.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

const usageQuery = Joi.object<{ days: UsageDays; token?: string }>({
  days: Joi.number().integer().valid(...USAGE_DAYS).default(7),
  token: fields.text(100),
});

const readUsageRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/usage',
  options: { response: answers({ 200: records.usage }), validate: { query: usageQuery } },
  handler: (request) =>
    usage(gateway, callerOf(request).organization.id, request.query.days, request.query.token),
});

/** Calls and charges per UTC day: organization keys only. */
export const usageRoutes: Plugin<Gateway> = {
  name: 'usage',
  register(server, gateway) {
    server.route([readUsageRoute(gateway)]);
  },
};
