import type { Request, ResponseToolkit, RouteOptions } from '@hapi/hapi';
import { GatewayError } from '../../../domain/errors.js';
import type { Gateway } from '../../../domain/gateway.js';
import { headerText } from '../../headers.js';
import { errorPage } from '../../../hosted/errors.js';
import type { HostedPage } from '../../../hosted/layout.js';
import type { ErrorRenderer } from '../../errors.js';

/** Hosted pages are never cached (they carry per-user state) and never framed. */
export function sendPage(h: Pick<ResponseToolkit, 'response'>, page: HostedPage) {
  return h
    .response(page.html)
    .code(page.status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', page.csp)
    .header('Cache-Control', 'no-store');
}

/** The error renderer src/http/errors.ts uses for every path under /v1/hosted/. */
export const renderHostedError: ErrorRenderer = (_request, h, error) => sendPage(h, errorPage(error));

/**
 * Route options every hosted route shares: no bearer auth; no CORS (no other site reads these pages);
 * cookies that fail to parse (another app's on the same host) are ignored instead of failing the page;
 * Referrer-Policy same-origin, so the secret in a page's address never reaches another site while our
 * own form posts still carry a real Origin (checkFormOrigin).
 */
export const hostedRoute = {
  auth: false,
  cors: false,
  state: { parse: true, failAction: 'ignore' },
  security: { noSniff: true, xframe: 'deny', referrer: 'same-origin' },
} as const satisfies RouteOptions;

/** Form posts are urlencoded, the one body type browsers send without JavaScript. */
export const formPayload = { allow: ['application/x-www-form-urlencoded'], defaultContentType: 'application/x-www-form-urlencoded', parse: true };

/**
 * Refuses a form post from another site: browsers send Origin on every POST, and our pages' Referrer-Policy
 * (same-origin) keeps it the real origin for our own forms, so a foreign or "null" one is a forged post.
 */
export function checkFormOrigin(gateway: Gateway, request: Pick<Request, 'headers'>): void {
  const origin = headerText(request.headers, 'origin');
  if (origin !== undefined && origin !== new URL(gateway.config.server.public_url).origin) {
    throw new GatewayError('untrusted_origin', 'This form was sent from another website, so it was not accepted. Open the page again and use its button.');
  }
}
