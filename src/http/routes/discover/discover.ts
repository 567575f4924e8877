import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { discover as discoverTasks } from '../../../domain/discovery/discover.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { principalHeader } from '../../headers.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

/** A job is a sentence or two (docs/discovery.md); 500 characters leave room for that. */
const MAX_JOB_LENGTH = 500;

/** The Discover body's fields; the MCP tool discover_tasks takes the same limits. */
export const discoverFields = {
  task: fields.text(MAX_JOB_LENGTH).required(),
  limit: Joi.number().integer().min(1).max(50).default(5),
};

export const discover = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/discover',
  options: {
    response: answers({ 200: records.discovery }),
    plugins: { gateway: { userTokens: true } },
    validate: {
      headers: principalHeader(),
      payload: Joi.object<{ task: string; limit: number }>(discoverFields).required(),
      inOnePass: true,
    },
  },
  handler: (request) => {
    const { task, limit } = request.payload;
    return discoverTasks(gateway, callerOf(request), { task, limit, principal: request.headers['svc-principal'] });
  },
});
