import Joi from 'joi';
import { REDIRECT_ALLOWLIST_LIMITS, redirectUriProblem } from '../redirect-uris.js';
import { fields } from './fields.js';

/** An allowlist entry: the allowlist rules (docs/end-users.md), reported per entry like any other refused value. */
export const redirectUri = fields.text(REDIRECT_ALLOWLIST_LIMITS.length).custom((value: string, helpers) => {
  const problem = redirectUriProblem(value);
  return problem ? helpers.error('redirect.refused', { problem }) : value;
}).messages({ 'redirect.refused': '{{#label}} ({{#value}}) {{#problem}}' });

/** The whole allowlist: PUT /v1/connect/redirect-uris and `gateway redirect-uris set`. */
export const redirectAllowlist = Joi.object<{ redirect_uris: string[] }>({
  redirect_uris: Joi.array().items(redirectUri).max(REDIRECT_ALLOWLIST_LIMITS.entries).required(),
});
