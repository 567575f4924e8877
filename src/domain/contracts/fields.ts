import Joi from 'joi';
import { PRINCIPAL_FORMAT, PRINCIPAL_PATTERN } from '../principals.js';

/** Bounded text forbids NUL characters and lone surrogates. */
function wellFormed(value: string, helpers: Joi.CustomHelpers) {
  if (value.includes('\u0000')) return helpers.error('string.nul');
  if (!value.isWellFormed()) return helpers.error('string.surrogate');
  return value;
}

const messages = {
  'string.nul': '{{#label}} must not contain a NUL character',
  'string.surrogate': '{{#label}} must not contain a lone surrogate',
};

/**
 * The one joi vocabulary for the API's limits: every operation's input schema is built from these, and both the HTTP
 * routes and the CLI check their input with those schemas (/v1/openapi.json shows them).
 */
export const fields = {
  text: (max: number, min = 1) => Joi.string().min(min).max(max).custom(wellFormed).messages(messages),
  principal: () =>
    Joi.string()
      .max(140)
      .custom(wellFormed)
      .pattern(PRINCIPAL_PATTERN)
      .messages({ ...messages, 'string.pattern.base': `{{#label}} ${PRINCIPAL_FORMAT}` }),
  pathId: () => fields.text(100),
  cursor: () => fields.text(100),
  url: (max: number) => fields.text(max).uri({ scheme: ['http', 'https'] }),
  oneOf: <T extends string>(...values: T[]) => Joi.string().valid(...values),
  /** `{id}` in a path: one resource's id. */
  idParams: () => Joi.object<{ id: string }>({ id: fields.pathId().required() }),
  /** `?cursor=` alone: a page of a list. */
  pageQuery: () => Joi.object<{ cursor?: string }>({ cursor: fields.cursor() }),
};
