import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import { putOAuthApp, type NewOAuthApp } from '../../../domain/oauth-apps.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../../domain/contracts/fields.js';
import { slugParams } from './params.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

/** RFC 6749 section 3.3 scope-token: printable ASCII except space, `"` and `\`. */
const scope = fields
  .text(200)
  .pattern(/^[\x21\x23-\x5B\x5D-\x7E]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must be one OAuth scope token (printable ASCII, no space, quote or backslash)' });

export const putOAuthAppRoute = (gateway: Gateway): ServerRoute => operation({
  method: 'PUT',
  path: '/v1/providers/{slug}/oauth-app',
  options: {
    response: answers({ 200: records.oauthApp }),
    plugins: { gateway: { role: 'admin' }, openapi: { errors: ['provider_not_found'] } },
    validate: {
      params: slugParams,
      payload: Joi.object<NewOAuthApp>({
        client_id: fields.text(500).required(),
        client_secret: fields.text(4000).required(),
        scopes: Joi.array().items(scope).max(100),
      }).required(),
    },
  },
  handler: (request) => putOAuthApp(gateway, callerOf(request).organization.id, request.params.slug, request.payload),
});
