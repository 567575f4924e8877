import { pageConnections } from '../../db/repos/connections.js';
import { findOrganizationById } from '../../db/repos/organizations.js';
import { isLiveToken } from '../../db/repos/user-tokens.js';
import type { Caller } from '../callers.js';
import { revokeConnection } from '../connections/connections.js';
import { presentConnection, type Connection } from '../connections/present.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { PAGE_SIZE, toPage } from '../paging.js';
import { isoTime } from '../time.js';

/**
 * The connections page link is `/v1/hosted/connections/<payload>.<signature>`: the payload names the
 * organization, one principal, the expiry and, when a principal-bound token asked for the page, that
 * token; the HMAC (gateway.keyring.sign) makes any change to it detectable, so nothing about the link
 * is stored. A token's page lives no longer than the token: it expires with it at the latest, and
 * every use checks that the token is still live (not revoked, not expired).
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

interface LinkClaims {
  o: string;
  p: string;
  e: number;
  /** The principal-bound token that asked for the page; absent for an organization key's page. */
  t?: string;
}

const LINK_PURPOSE = 'connections-page:v1:';
const FORM_PURPOSE = 'connections-page-form:v1:';

/** A page link for `principal`; asked for by a principal-bound token, it is bound to that token's life. */
export function createConnectionsPage(
  gateway: Pick<Gateway, 'config' | 'keyring'>,
  caller: Caller,
  principal: string,
  now = Date.now(),
): ConnectionsPageCreated {
  const ttlEnd = now + gateway.config.connections_page.ttl_s * 1000;
  const claims: LinkClaims =
    caller.kind === 'user_token'
      ? { o: caller.organization.id, p: principal, e: Math.min(ttlEnd, caller.expiresAt!), t: caller.credentialId }
      : { o: caller.organization.id, p: principal, e: ttlEnd };
  const payload = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
  const token = `${payload}.${gateway.keyring.sign(LINK_PURPOSE + payload)}`;
  return { url: `${gateway.config.server.public_url}/v1/hosted/connections/${token}`, expires_at: isoTime(claims.e) };
}

const invalidLink = () =>
  new GatewayError(
    'invalid_token',
    'This page link is not valid or has expired. Ask the app that sent you here for a new link to review your connections.',
  );

/**
 * The organization and principal a page link shows; a tampered, malformed or expired link, or one whose
 * token has been revoked or has expired, is invalid_token.
 */
export async function openConnectionsPage(gateway: Pick<Gateway, 'db' | 'keyring'>, token: string, now = Date.now()): Promise<ConnectionsPageGrant> {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || !gateway.keyring.verify(LINK_PURPOSE + payload, signature)) throw invalidLink();
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
  if (!(claims.e > now)) throw invalidLink();
  if (claims.t !== undefined && !(await isLiveToken(gateway.db, claims.o, claims.t, now))) throw invalidLink();
  return { organizationId: claims.o, principal: claims.p, expiresAt: claims.e };
}

/**
 * The anti-forgery value a page's revoke forms carry: bound to the page link and to a random value the
 * page keeps in the browser's cookie, so neither another site nor someone holding only the link can
 * produce it for this browser.
 */
export function connectionsPageFormToken(gateway: Pick<Gateway, 'keyring'>, token: string, browserValue: string): string {
  return gateway.keyring.sign(`${FORM_PURPOSE}${token}:${browserValue}`);
}

export function checkConnectionsPageForm(
  gateway: Pick<Gateway, 'keyring'>,
  token: string,
  browserValue: string | undefined,
  formToken: string | undefined,
): void {
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

const withProviderName = (gateway: Pick<Gateway, 'catalog'>, connection: Connection) => ({
  ...connection,
  providerName: gateway.catalog.providers.get(connection.provider)?.name ?? connection.provider,
});

/** Everything the page shows: only the link's principal's connections in the link's organization. */
export async function connectionsPageData(gateway: Pick<Gateway, 'db' | 'catalog'>, grant: ConnectionsPageGrant): Promise<ConnectionsPageData> {
  const organization = await findOrganizationById(gateway.db, grant.organizationId);
  if (!organization || organization.status !== 'active') throw invalidLink();
  const connections: Connection[] = [];
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = toPage(await pageConnections(gateway.db, grant.organizationId, { principal: grant.principal }, { afterId: after, size: PAGE_SIZE }), (row) => row.id);
    connections.push(...page.items.map(presentConnection));
    if (!page.next_cursor) break;
    after = page.items[page.items.length - 1].id;
  }
  return { organizationName: organization.display_name, connections: connections.map((c) => withProviderName(gateway, c)) };
}

/** Revoke from the page: the same revocation as DELETE /v1/connections/{id}, limited to the link's principal. */
export async function revokeFromConnectionsPage(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog' | 'log'>,
  grant: ConnectionsPageGrant,
  connectionId: string,
) {
  return withProviderName(gateway, await revokeConnection(gateway, grant.organizationId, connectionId, grant.principal));
}
