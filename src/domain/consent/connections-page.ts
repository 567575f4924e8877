import { pageConnections } from '../../db/repos/connections.js';
import { findOrganizationById } from '../../db/repos/organizations.js';
import { revokeConnection } from '../connections/connections.js';
import { presentConnection, type Connection } from '../connections/present.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { toPage } from '../paging.js';
import { isoTime } from '../time.js';

/**
 * The connections page link is `/v1/hosted/connections/<payload>.<signature>`: the payload names the
 * organization, one principal and the expiry; the HMAC (gateway.keyring.sign) makes any change to it
 * detectable, so nothing about the link is stored.
 */

export interface ConnectionsPageCreated {
  url: string;
  expires_at: string;
}

export interface ConnectionsPageGrant {
  organizationId: string;
  principal: string;
  expiresAt: number;
}

const LINK_PURPOSE = 'connections-page:v1:';
const FORM_PURPOSE = 'connections-page-form:v1:';

export function createConnectionsPage(gateway: Gateway, organizationId: string, principal: string, now = Date.now()): ConnectionsPageCreated {
  const expiresAt = now + gateway.config.connections_page.ttl_s * 1000;
  const payload = Buffer.from(JSON.stringify({ o: organizationId, p: principal, e: expiresAt }), 'utf8').toString('base64url');
  const token = `${payload}.${gateway.keyring.sign(LINK_PURPOSE + payload)}`;
  return { url: `${gateway.config.server.public_url}/v1/hosted/connections/${token}`, expires_at: isoTime(expiresAt) };
}

const invalidLink = () =>
  new GatewayError(
    'invalid_token',
    'This page link is not valid or has expired. Ask the app that sent you here for a new link to review your connections.',
  );

/** The organization and principal a page link shows; a tampered, malformed or expired link is invalid_token. */
export function openConnectionsPage(gateway: Gateway, token: string, now = Date.now()): ConnectionsPageGrant {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || !gateway.keyring.verify(LINK_PURPOSE + payload, signature)) throw invalidLink();
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o: string; p: string; e: number };
  if (!(claims.e > now)) throw invalidLink();
  return { organizationId: claims.o, principal: claims.p, expiresAt: claims.e };
}

/**
 * The anti-forgery value a page's revoke forms carry: bound to the page link and to a random value the
 * page keeps in the browser's cookie, so neither another site nor someone holding only the link can
 * produce it for this browser.
 */
export function connectionsPageFormToken(gateway: Gateway, token: string, browserValue: string): string {
  return gateway.keyring.sign(`${FORM_PURPOSE}${token}:${browserValue}`);
}

export function checkConnectionsPageForm(gateway: Gateway, token: string, browserValue: string | undefined, formToken: string | undefined): void {
  if (!browserValue || !formToken || !gateway.keyring.verify(`${FORM_PURPOSE}${token}:${browserValue}`, formToken)) {
    throw new GatewayError('untrusted_origin', 'This form could not be verified. Reload the page and try again.');
  }
}

export interface ConnectionsPageData {
  organizationName: string;
  connections: Array<Connection & { providerName: string }>;
}

/** Internal safety cap on how many of one principal's connections the page lists, not a product limit. */
const MAX_PAGES = 10;

const withProviderName = (gateway: Gateway, connection: Connection) => ({
  ...connection,
  providerName: gateway.catalog.providers.get(connection.provider)?.name ?? connection.provider,
});

/** Everything the page shows: only the link's principal's connections in the link's organization. */
export async function connectionsPageData(gateway: Gateway, grant: ConnectionsPageGrant): Promise<ConnectionsPageData> {
  const organization = await findOrganizationById(gateway.db, grant.organizationId);
  if (!organization || organization.status !== 'active') throw invalidLink();
  const connections: Connection[] = [];
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = toPage(await pageConnections(gateway.db, grant.organizationId, { principal: grant.principal }, after), (row) => row.id);
    connections.push(...page.items.map(presentConnection));
    if (!page.next_cursor) break;
    after = page.items[page.items.length - 1].id;
  }
  return { organizationName: organization.name, connections: connections.map((c) => withProviderName(gateway, c)) };
}

/** Revoke from the page: the same revocation as DELETE /v1/connections/{id}, limited to the link's principal. */
export async function revokeFromConnectionsPage(gateway: Gateway, grant: ConnectionsPageGrant, connectionId: string) {
  return withProviderName(gateway, await revokeConnection(gateway, grant.organizationId, connectionId, grant.principal));
}
