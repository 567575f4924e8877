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

/** A header of a route or extension that does not validate its headers, as text (node joins repeated request headers into one). */
export function headerText(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}
