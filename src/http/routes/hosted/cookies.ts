import type { Server } from '@hapi/hapi';
import type { Gateway } from '../../../domain/gateway.js';
import { newSecret } from '../../../domain/secrets.js';

/** The browser a connect session is bound to (its hash is stored on the session). */
export const CONNECT_COOKIE = 'gw_connect';
/** The per-browser value the connections page's anti-forgery tokens are bound to. */
export const PAGE_COOKIE = 'gw_page';
/** The per-browser value an approval page's form token is bound to. */
export const APPROVAL_COOKIE = 'gw_approval';

const BROWSER_VALUE = /^[A-Za-z0-9_-]{43}$/;

export function registerHostedCookies(server: Server, gateway: Gateway): void {
  const isSecure = gateway.config.server.public_url.startsWith('https:');
  const common = { isSecure, isHttpOnly: true, isSameSite: 'Lax' as const, encoding: 'none' as const, ignoreErrors: true, clearInvalid: false, strictHeader: true };
  server.state(CONNECT_COOKIE, { ...common, path: '/v1/hosted/connect', ttl: gateway.config.connect.session_ttl_s * 1000 });
  server.state(PAGE_COOKIE, { ...common, path: '/v1/hosted/connections', ttl: gateway.config.connections_page.ttl_s * 1000 });
  server.state(APPROVAL_COOKIE, { ...common, path: '/v1/hosted/approvals', ttl: gateway.config.approvals.ttl_s * 1000 });
}

/** The browser's existing value when it sent a well-formed one, else a new random one to set. */
export function browserValue(sent: unknown): { value: string; isNew: boolean } {
  if (typeof sent === 'string' && BROWSER_VALUE.test(sent)) return { value: sent, isNew: false };
  return { value: newSecret(''), isNew: true };
}

export function sentBrowserValue(sent: unknown): string | undefined {
  return typeof sent === 'string' && BROWSER_VALUE.test(sent) ? sent : undefined;
}
