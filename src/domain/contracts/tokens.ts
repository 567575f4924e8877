import Joi from 'joi';
import { TOKEN_LIFETIME, type NewUserBoundToken } from '../tokens.js';
import { fields } from './fields.js';

/** Issuing a principal-bound token: POST /v1/tokens and `gateway tokens issue`. */
export const newUserBoundToken = Joi.object<NewUserBoundToken>({
  principal: fields.principal().required(),
  expires_in: Joi.number().strict().integer().min(TOKEN_LIFETIME.min).max(TOKEN_LIFETIME.max),
});
