import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { retryConsent } from '../../../domain/consent/flow.js';
import type { Gateway } from '../../../domain/gateway.js';
import { fields } from '../../../domain/contracts/fields.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';
import { CONNECT_COOKIE, sentBrowserValue } from './cookies.js';
import { checkFormOrigin, formPayload, hostedRoute } from './respond.js';

/** "Try again" on the recovery page: a new authorization attempt from the browser the session is bound to. */
export const retry = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/hosted/connect/sessions/{id}/retry',
  options: { ...hostedRoute, response: answers({ 303: records.seeOther }), plugins: { openapi: { errors: ['connect_session_not_found', 'untrusted_origin'] } }, payload: formPayload, validate: { params: fields.idParams(), payload: Joi.object({}).allow(null) } },
  async handler(request, h) {
    checkFormOrigin(gateway, request);
    const authorizeUrl = await retryConsent(gateway, request.params.id, sentBrowserValue(request.state[CONNECT_COOKIE]));
    return h.redirect(authorizeUrl).code(303);
  },
});
