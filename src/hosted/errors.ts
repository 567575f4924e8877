import type { GatewayError } from '../domain/errors.js';
import { html } from './html.js';
import { renderPage, type HostedPage } from './layout.js';

/**
 * Any error on a hosted path as a page a person can act on. The codes the hosted flow raises on purpose
 * (connect_session_not_found, invalid_token, untrusted_origin, approval_expired) carry a detail written for the end user and
 * show it; every other error gets a plain message by kind, never the developer-facing detail, a stack
 * trace or JSON.
 */
function wording(error: GatewayError): { title: string; message: string } {
  if (error.code === 'connect_session_not_found') return { title: 'This link cannot be used', message: error.message };
  if (error.code === 'invalid_token') return { title: 'This page link is not valid', message: error.message };
  if (error.code === 'untrusted_origin') return { title: 'Request not verified', message: error.message };
  if (error.code === 'approval_expired') return { title: 'This request cannot be decided', message: error.message };
  if (error.code === 'oauth_app_required') {
    return { title: 'Connecting is not set up yet', message: 'The app that sent you here has not finished setting up this connection. Please let them know.' };
  }
  if (error.code === 'connection_not_found') {
    return { title: 'Connection not found', message: 'This connection is not one of yours, or no longer exists. Reload the page to see your connections.' };
  }
  if (error.code === 'route_not_found') return { title: 'Page not found', message: 'There is no page at this address. Check the link you were given.' };
  if (error.status < 500) return { title: 'This request is not valid', message: 'The link or form you used is not valid. Open the link you were given again.' };
  return { title: 'Something went wrong', message: 'We could not finish this request. Please try again in a few minutes.' };
}

export function errorPage(error: GatewayError): HostedPage {
  const { title, message } = wording(error);
  return renderPage({
    title,
    status: error.status,
    body: html`
<div class="icon bad" aria-hidden="true">!</div>
<h1>${title}</h1>
<p>${message}</p>`,
  });
}
