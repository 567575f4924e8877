import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { createConnection, type NewConnection } from '../../../domain/connections/connections.js';
import type { Gateway } from '../../../domain/gateway.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

const oauthTokens = Joi.object({
  access_token: fields.text(8192).required(),
  refresh_token: fields.text(8192),
  expires_at: Joi.string().isoDate(),
  scopes: Joi.array().items(fields.text(200)).max(100),
});

const newConnection = Joi.object<NewConnection>({
  provider: fields.text(100).required(),
  principal: fields.principal(),
  credential: Joi.alternatives().try(fields.text(8192, 4), oauthTokens).required(),
  label: fields.text(320),
}).required();

export const createConnectionRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/connections',
  options: { response: answers({ 200: records.connection }), plugins: { rateLimit: { class: 'connections' }, openapi: { errors: ['principal_forbidden', 'credential_refused', 'probe_unavailable'] } }, validate: { payload: newConnection } },
  handler: (request) => createConnection(gateway, callerOf(request), request.payload),
});
