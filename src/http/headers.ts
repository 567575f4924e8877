import Joi from 'joi';

/** Request headers: the named ones are validated, all others pass through untouched. */
export function headers(known: Record<string, Joi.Schema>) {
  return Joi.object(known).unknown(true);
}
