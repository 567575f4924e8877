import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import {
  checkConnectionsPageForm,
  connectionsPageData,
  connectionsPageFormToken,
  openConnectionsPage,
  revokeFromConnectionsPage,
} from '../../../domain/consent/connections-page.js';
import type { Gateway } from '../../../domain/gateway.js';
import { connectionsPage } from '../../../hosted/connections.js';
import { fields } from '../../../domain/contracts/fields.js';
import { answers, records } from '../../records.js';
import { operation } from '../../operation.js';
import { browserValue, PAGE_COOKIE, sentBrowserValue } from './cookies.js';
import { checkFormOrigin, formPayload, hostedRoute, sendPage } from './respond.js';

const params = Joi.object<{ token: string }>({ token: fields.text(1000).required() });

const pagePath = (token: string) => `/v1/hosted/connections/${token}`;

/** The signed page: that principal's connections, each live one with a revoke form. */
export const showConnectionsPage = (gateway: Gateway): ServerRoute => operation({
  method: 'GET',
  path: '/v1/hosted/connections/{token}',
  options: { ...hostedRoute, response: answers({ 200: records.page }), plugins: { openapi: { errors: ['invalid_token', 'connection_not_found'] } }, validate: { params, query: Joi.object<{ revoked?: string }>({ revoked: fields.pathId() }) } },
  async handler(request, h) {
    const { token } = request.params;
    const grant = await openConnectionsPage(gateway, token);
    const data = await connectionsPageData(gateway, grant);
    const browser = browserValue(request.state[PAGE_COOKIE]);
    const revokedId = request.query.revoked;
    const page = connectionsPage({
      ...data,
      principal: grant.principal,
      path: pagePath(token),
      formToken: connectionsPageFormToken(gateway, token, browser.value),
      expiresAt: grant.expiresAt,
      revoked: data.connections.find((c) => c.id === revokedId && c.status === 'revoked'),
    });
    return sendPage(h, page).state(PAGE_COOKIE, browser.value);
  },
});

/**
 * Revoke: the link must still be valid, the post must come from this site (Origin) and carry the form
 * token bound to this link and this browser's cookie. Answers with a redirect back to the page (so a
 * reload does not post again), which then confirms the revocation.
 */
export const revokeOnConnectionsPage = (gateway: Gateway): ServerRoute => operation({
  method: 'POST',
  path: '/v1/hosted/connections/{token}/revoke',
  options: {
    response: answers({ 303: records.seeOther }),
    plugins: { openapi: { errors: ['invalid_token', 'connection_not_found', 'untrusted_origin'] } },
    ...hostedRoute,
    payload: formPayload,
    validate: { params, payload: Joi.object<{ csrf?: string; connection_id: string }>({ csrf: fields.text(200), connection_id: fields.pathId().required() }).required() },
  },
  async handler(request, h) {
    const { token } = request.params;
    const grant = await openConnectionsPage(gateway, token);
    checkFormOrigin(gateway, request);
    const form = request.payload;
    checkConnectionsPageForm(gateway, token, sentBrowserValue(request.state[PAGE_COOKIE]), form.csrf);
    const revoked = await revokeFromConnectionsPage(gateway, grant, form.connection_id);
    return h.redirect(`${pagePath(token)}?revoked=${encodeURIComponent(revoked.id)}`).code(303);
  },
});
