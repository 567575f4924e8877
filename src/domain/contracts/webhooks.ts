import Joi from 'joi';
import { fields } from './fields.js';

/**
 * Registering a webhook: POST /v1/webhooks and `gateway webhooks register`. Any well-formed URL passes here: a
 * non-HTTPS scheme or a refused address is the domain's 422 webhook_target_refused (docs/webhooks.md).
 */
export const newWebhook = Joi.object<{ url: string }>({ url: fields.text(2000).uri().required() });
