import Joi from 'joi';
import { fields } from '../domain/contracts/fields.js';

/**
 * Request headers: the named ones are validated, all others pass through untouched. `Known` is what the
 * handler reads of them (operation() types `request.headers` with it), each optional as a header is.
 */
export function headers<Known extends { [name: string]: string | undefined }>(known: { [name in keyof Known]-?: Joi.Schema }): Joi.ObjectSchema<Known> {
  return Joi.object<Known>(known).unknown(true);
}

/** `svc-principal` alone: the routes that read tasks for a principal. */
export const principalHeader = () => headers<{ 'svc-principal'?: string }>({ 'svc-principal': fields.principal() });
