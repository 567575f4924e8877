import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { approvalFormToken, decideOnPage, openApproval } from '../../../domain/approvals/approvals.js';
import { fields } from '../../../domain/contracts/fields.js';
import { GatewayError } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { approvalPage } from '../../../hosted/approval.js';
import { operation } from '../../operation.js';
import { answers, records } from '../../records.js';
import { APPROVAL_COOKIE, browserValue, sentBrowserValue } from './cookies.js';
import { checkFormOrigin, formPayload, hostedRoute, sendPage } from './respond.js';

const params = Joi.object<{ token: string }>({ token: fields.text(200).required() });

const pagePath = (token: string) => `/v1/hosted/approvals/${token}`;

/** Showing the page only reads the approval: a link scanner's prefetch decides nothing. */
export const showApproval = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/hosted/approvals/{token}',
  options: { ...hostedRoute, response: answers({ 200: records.page }), plugins: { openapi: { errors: ['invalid_token'] } }, validate: { params } },
  async handler(request, h) {
    const { token } = request.params;
    const view = await openApproval(gateway, token);
    const browser = browserValue(request.state[APPROVAL_COOKIE]);
    const page = approvalPage(view, { path: pagePath(token), formToken: approvalFormToken(gateway, view.approval.id, browser.value) });
    return sendPage(h, page).state(APPROVAL_COOKIE, browser.value);
  },
});

/**
 * The decision: from this site (Origin), carrying the form token bound to this approval and this browser's
 * cookie, and never with a bearer credential, since no key or token may decide for the end user. Answers
 * with a redirect back to the page, which shows what was decided.
 */
export const decideApproval = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/hosted/approvals/{token}',
  options: {
    ...hostedRoute,
    response: answers({ 303: records.seeOther }),
    plugins: { openapi: { errors: ['invalid_token', 'untrusted_origin', 'approval_expired'] } },
    payload: formPayload,
    validate: {
      params,
      payload: Joi.object<{ csrf?: string; decision: 'approve' | 'decline' }>({ csrf: fields.text(200), decision: fields.oneOf('approve', 'decline').required() }).required(),
    },
  },
  async handler(request, h) {
    const { token } = request.params;
    if (request.headers.authorization !== undefined) {
      throw new GatewayError('untrusted_origin', 'A run is approved by its end user at this page, never with an API key or token.');
    }
    checkFormOrigin(gateway, request);
    const view = await openApproval(gateway, token);
    await decideOnPage(gateway, view, { browserValue: sentBrowserValue(request.state[APPROVAL_COOKIE]), formToken: request.payload.csrf, decision: request.payload.decision });
    return h.redirect(pagePath(token)).code(303);
  },
});
