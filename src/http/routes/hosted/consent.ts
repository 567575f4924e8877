import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { beginConsent, openConnectLink } from '../../../domain/consent/flow.js';
import type { Gateway } from '../../../domain/gateway.js';
import { consentPage } from '../../../hosted/consent.js';
import { fields } from '../../../domain/contracts/fields.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';
import { browserValue, CONNECT_COOKIE } from './cookies.js';
import { checkFormOrigin, formPayload, hostedRoute, sendPage } from './respond.js';

const params = Joi.object<{ secret: string }>({ secret: fields.text(200).required() });

/** Showing the consent page only reads the session: a prefetch by a mail scanner does not use the link. */
export const showConsent = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/hosted/connect/{secret}',
  options: { ...hostedRoute, response: answers({ 200: records.page }), plugins: { openapi: { errors: ['connect_session_not_found'] } }, validate: { params } },
  async handler(request, h) {
    const { secret } = request.params;
    return sendPage(h, consentPage(await openConnectLink(gateway, secret), secret));
  },
});

/** Continue: binds the session to this browser and sends it to the provider's authorization page. */
export const continueConsent = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/hosted/connect/{secret}',
  options: { ...hostedRoute, response: answers({ 303: records.seeOther }), plugins: { openapi: { errors: ['connect_session_not_found', 'untrusted_origin'] } }, payload: formPayload, validate: { params, payload: Joi.object({}).allow(null) } },
  async handler(request, h) {
    checkFormOrigin(gateway, request);
    const browser = browserValue(request.state[CONNECT_COOKIE]);
    const authorizeUrl = await beginConsent(gateway, request.params.secret, browser.value);
    return h.redirect(authorizeUrl).code(303).state(CONNECT_COOKIE, browser.value);
  },
});
