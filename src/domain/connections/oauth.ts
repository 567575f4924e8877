import { findConnectionById, replaceConnectionCredential, type ConnectionRow } from '../../db/repos/connections.js';
import { isOAuth2, OAuthRefused, refreshTokens, revokeToken, type OAuth2Auth } from '../../providers/oauth2.js';
import type { Provider } from '../catalog/types.js';
import { runConnectLink } from '../consent/sessions.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { oauthLimits, resolveOAuthClient } from '../oauth-apps.js';
import { markNeedsReauth } from './connections.js';
import { openCredential, sealCredential, type StoredCredential } from './credentials.js';

/** An access token this close to its expiry is renewed before use, so it cannot expire mid-call. */
const REFRESH_MARGIN_MS = 60_000;

type OAuthCredential = Extract<StoredCredential, { type: 'oauth2' }>;

function needsRefresh(credential: OAuthCredential, now: number): boolean {
  return credential.expires_at !== undefined && credential.expires_at - REFRESH_MARGIN_MS <= now;
}

/**
 * A connect link for the connection's principal, provider and (catalog-known) scopes, to put in
 * connection_invalid as `reconnect_url`; undefined when no link can be made (e.g. no OAuth app any more).
 */
export async function reconnectUrl(gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>, row: ConnectionRow): Promise<string | undefined> {
  const provider = gateway.catalog.providers.get(row.provider);
  return provider ? runConnectLink(gateway, row.organization_id, row.principal, provider, row.scopes) : undefined;
}

async function refused(gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>, provider: Provider, row: ConnectionRow): Promise<GatewayError> {
  await markNeedsReauth(gateway, row.id);
  const url = await reconnectUrl(gateway, row);
  return new GatewayError(
    'connection_invalid',
    `${provider.name} refused to renew the access token of connection ${row.id}; the account must be connected again`,
    url ? { reconnect_url: url } : {},
  );
}

/**
 * The secret to call the provider with. An OAuth access token that has expired, or will within a minute,
 * is first renewed with its refresh token at the provider's token endpoint (with the organization's OAuth
 * client) and the new tokens are stored encrypted. The provider refusing the renewal, or an expired
 * token with no refresh token, marks the connection needs_reauth and throws 401 connection_invalid with
 * a reconnect_url; the provider being unreachable throws 502 upstream_error.
 */
export async function ensureFreshCredential(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  row: ConnectionRow,
  now = Date.now(),
): Promise<string> {
  const credential = openCredential(gateway.keyring, row.credential);
  if (credential.type !== 'oauth2') return credential.secret;
  if (!needsRefresh(credential, now)) return credential.access_token;
  const provider = gateway.catalog.providers.get(row.provider);
  if (!provider || !isOAuth2(provider)) return credential.access_token;
  if (!credential.refresh_token) {
    if (credential.expires_at! > now) return credential.access_token;
    throw await refused(gateway, provider, row);
  }
  const client = await resolveOAuthClient(gateway, row.organization_id, provider.slug);
  let fresh: OAuthCredential;
  try {
    const tokens = await refreshTokens(provider.auth, client, credential.refresh_token, oauthLimits(gateway.config));
    fresh = {
      type: 'oauth2',
      access_token: tokens.access_token,
      // Providers that do not rotate refresh tokens answer without one: the old one stays valid.
      refresh_token: tokens.refresh_token ?? credential.refresh_token,
      expires_at: tokens.expires_at,
      scopes: tokens.scopes ?? credential.scopes,
    };
  } catch (err) {
    if (!(err instanceof OAuthRefused)) {
      throw new GatewayError('upstream_error', `${provider.name} could not be reached to renew the access token; try again later`);
    }
    // Another request may have renewed (and rotated) the same refresh token a moment ago.
    const current = await findConnectionById(gateway.db, row.id);
    if (current && current.credential !== row.credential && current.status === 'active') {
      const renewed = openCredential(gateway.keyring, current.credential);
      if (renewed.type === 'oauth2' && !needsRefresh(renewed, now)) return renewed.access_token;
    }
    throw await refused(gateway, provider, row);
  }
  await replaceConnectionCredential(gateway.db, row.id, sealCredential(gateway.keyring, fresh), fresh.expires_at ?? null, now);
  return fresh.access_token;
}

/**
 * RFC 7009: revokes the connection's access and refresh tokens at the provider when it declares a
 * revoke_url. Best effort: the local revocation has already happened, so failures are logged (without
 * any token) and never thrown.
 */
export async function revokeAtProvider(gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog' | 'log'>, row: ConnectionRow): Promise<void> {
  const provider = gateway.catalog.providers.get(row.provider);
  if (!provider || !isOAuth2(provider) || !provider.auth.revoke_url) return;
  const auth = provider.auth as OAuth2Auth & { revoke_url: string };
  const credential = openCredential(gateway.keyring, row.credential);
  if (credential.type !== 'oauth2') return;
  const log = gateway.log.child({ connection: row.id, provider: provider.slug });
  let client;
  try {
    client = await resolveOAuthClient(gateway, row.organization_id, provider.slug);
  } catch (err) {
    log.warn({ reason: err instanceof GatewayError ? err.code : 'unknown' }, 'provider-side revocation skipped: no OAuth client');
    return;
  }
  const tokens: Array<[string | undefined, 'access_token' | 'refresh_token']> = [
    [credential.access_token, 'access_token'],
    [credential.refresh_token, 'refresh_token'],
  ];
  for (const [token, hint] of tokens) {
    if (!token) continue;
    try {
      await revokeToken(auth, client, token, hint, oauthLimits(gateway.config));
    } catch (err) {
      log.warn({ token_type: hint, reason: (err as Error).message }, 'provider-side revocation failed');
    }
  }
}
