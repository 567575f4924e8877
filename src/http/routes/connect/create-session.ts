import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { createConnectSession, type NewConnectSession } from '../../../domain/consent/sessions.js';
import type { Gateway } from '../../../domain/gateway.js';
import { actingPrincipal } from '../../../domain/principals.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';

export const createSession = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/connect/sessions',
  options: {
    response: answers({ 201: records.connectSessionCreated }),
    plugins: { gateway: { userTokens: true }, rateLimit: { class: 'connect_sessions' }, openapi: { errors: ['principal_forbidden', 'oauth_app_required'] } },
    validate: {
      payload: Joi.object<NewConnectSession>({
        provider: fields.pathId().required(),
        principal: fields.principal().required(),
        scopes: Joi.array().items(fields.text(200)).max(100).unique(),
        redirect_uri: fields.url(2000),
      }).required(),
    },
  },
  async handler(request, h) {
    const caller = callerOf(request);
    const body = request.payload;
    const principal = actingPrincipal(caller, body.principal);
    const created = await createConnectSession(gateway, caller.organization.id, { ...body, principal });
    return h.response(created).code(201);
  },
});
