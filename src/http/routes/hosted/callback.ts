import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { completeConsent } from '../../../domain/consent/flow.js';
import type { Gateway } from '../../../domain/gateway.js';
import { donePage, recoveryPage } from '../../../hosted/consent.js';
import { answers, records } from '../../records.js';
import { CONNECT_COOKIE, sentBrowserValue } from './cookies.js';
import { hostedRoute, sendPage } from './respond.js';

/**
 * The provider's redirect back (`<public url>/v1/hosted/connect/callback`). Providers add parameters of
 * their own (iss, scope, session_state...), so any query is accepted and handed to the OAuth client whole.
 */
export const callback = (gateway: Gateway): ServerRoute => ({
  method: 'GET',
  path: '/v1/hosted/connect/callback',
  options: { ...hostedRoute, response: answers({ 200: records.page, 303: records.seeOther }), plugins: { openapi: { errors: ['connect_session_not_found'] } }, validate: { query: Joi.object().unknown(true) } },
  async handler(request, h) {
    const outcome = await completeConsent(gateway, new URLSearchParams(request.url.search), sentBrowserValue(request.state[CONNECT_COOKIE]));
    if (outcome.kind !== 'completed') return sendPage(h, recoveryPage(outcome.view, outcome.kind, outcome.retryable));
    if (outcome.redirect) return h.redirect(outcome.redirect).code(303);
    return sendPage(h, donePage(outcome.view, outcome.connection.label ?? outcome.connection.account_id));
  },
});
