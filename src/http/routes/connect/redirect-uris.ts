import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { Gateway } from '../../../domain/gateway.js';
import {
  getRedirectAllowlist,
  REDIRECT_ALLOWLIST_LIMITS,
  redirectUriProblem,
  setRedirectAllowlist,
} from '../../../domain/redirect-uris.js';
import { callerOf } from '../../auth.js';
import { fields } from '../../fields.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';

/** An allowlist entry: the allowlist rules (docs/end-users.md) checked by the domain, reported per entry like any joi failure. */
const redirectUri = fields.text(REDIRECT_ALLOWLIST_LIMITS.length).custom((value: string, helpers) => {
  const problem = redirectUriProblem(value);
  return problem ? helpers.error('redirect.refused', { problem }) : value;
}).messages({ 'redirect.refused': '{{#label}} ({{#value}}) {{#problem}}' });

export const getRedirectUris = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/connect/redirect-uris',
  options: { response: answers({ 200: records.redirectAllowlist }) },
  handler: (request) => getRedirectAllowlist(gateway.db, callerOf(request).organization.id),
});

export const putRedirectUris = (gateway: Gateway): ServerRoute => operation({
  method: 'PUT',
  path: '/v1/connect/redirect-uris',
  options: {
    response: answers({ 200: records.redirectAllowlist }),
    plugins: { gateway: { role: 'admin' } },
    validate: {
      payload: Joi.object<{ redirect_uris: string[] }>({
        redirect_uris: Joi.array().items(redirectUri).max(REDIRECT_ALLOWLIST_LIMITS.entries).required(),
      }).required(),
    },
  },
  handler: (request) =>
    setRedirectAllowlist(gateway.db, callerOf(request).organization.id, request.payload.redirect_uris),
});
