import type { Plugin, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { usage, USAGE_DAYS, type UsageDays } from '../../../domain/audit/usage.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { answers, records } from '../../records.js';

const usageQuery = Joi.object({
  days: Joi.number().integer().valid(...USAGE_DAYS).default(7),
  token: fields.text(100),
});

const readUsageRoute = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/usage',
  options: { response: answers({ 200: records.usage }), validate: { query: usageQuery } },
  handler: (request) =>
    usage(gateway, callerOf(request).organization.id, request.query.days as UsageDays, request.query.token as string | undefined),
});

/** Calls and charges per UTC day: organization keys only. */
export const usageRoutes: Plugin<Gateway> = {
  name: 'usage',
  register(server, gateway) {
    server.route([readUsageRoute(gateway)]);
  },
};
