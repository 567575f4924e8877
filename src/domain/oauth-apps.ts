import type { Config } from '../config/schema.js';
import { deleteOAuthAppRow, findOAuthAppRow, upsertOAuthAppRow, type OAuthAppRow } from '../db/repos/oauth-apps.js';
import type { UpstreamLimits } from '../providers/upstream.js';
import type { Provider } from './catalog/types.js';
import { GatewayError, invalidInput } from './errors.js';
import type { Gateway } from './gateway.js';
import { isoTime } from './time.js';

/** GET/PUT /v1/providers/{slug}/oauth-app: everything but the client secret. */
export interface OAuthApp {
  provider: string;
  client_id: string;
  /** Scopes every consent with this app asks for; empty means the provider's catalog defaults. */
  scopes: string[];
  created_at: string;
  updated_at: string;
  /** What to register as the redirect (callback) URI in the app's settings at the provider. */
  redirect_uri: string;
}

export interface NewOAuthApp {
  client_id: string;
  client_secret: string;
  scopes?: string[];
}

/** The OAuth client a consent, a refresh or a revocation uses; never leaves the domain. */
export interface ResolvedOAuthClient {
  client_id: string;
  client_secret: string;
  scopes: string[];
  /** True when it is the operator's managed app rather than the organization's own. */
  managed: boolean;
}

/** The one callback every provider app registers (docs/connect-flow.md). */
export function oauthRedirectUri(config: Config): string {
  return `${config.server.public_url}/v1/hosted/connect/callback`;
}

/** How a consent's code exchange, a refresh and a revocation are sent: within the limits of provider calls. */
export function oauthLimits(config: Config): UpstreamLimits {
  return { timeoutMs: config.upstream.timeout_ms, maxResponseBytes: config.upstream.max_response_bytes };
}

function providerOf(gateway: Pick<Gateway, 'catalog'>, slug: string): Provider {
  const provider = gateway.catalog.providers.get(slug);
  if (!provider) throw new GatewayError('provider_not_found', `no provider "${slug}" in the catalog`);
  return provider;
}

function present(gateway: Pick<Gateway, 'config'>, row: OAuthAppRow): OAuthApp {
  return {
    provider: row.provider,
    client_id: row.client_id,
    scopes: row.scopes,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    redirect_uri: oauthRedirectUri(gateway.config),
  };
}

const noApp = (slug: string) => new GatewayError('oauth_app_not_found', `this organization has no OAuth app for ${slug}`);

async function existingApp(gateway: Pick<Gateway, 'db' | 'catalog'>, organizationId: string, slug: string): Promise<OAuthAppRow> {
  providerOf(gateway, slug);
  const row = await findOAuthAppRow(gateway.db, organizationId, slug);
  if (!row) throw noApp(slug);
  return row;
}

export async function getOAuthApp(gateway: Pick<Gateway, 'config' | 'db' | 'catalog'>, organizationId: string, slug: string): Promise<OAuthApp> {
  return present(gateway, await existingApp(gateway, organizationId, slug));
}

/** Sets (or replaces) the organization's own app; the client secret is stored encrypted with the keyring. */
export async function putOAuthApp(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  organizationId: string,
  slug: string,
  app: NewOAuthApp,
  now = Date.now(),
): Promise<OAuthApp> {
  const provider = providerOf(gateway, slug);
  if (provider.auth.type !== 'oauth2') {
    throw invalidInput(`${slug} does not use OAuth2 (its auth is ${provider.auth.type}); it takes no OAuth app`);
  }
  const row = await upsertOAuthAppRow(gateway.db, {
    organization_id: organizationId,
    provider: slug,
    client_id: app.client_id,
    client_secret: gateway.keyring.encrypt(app.client_secret),
    scopes: [...new Set(app.scopes ?? [])],
    created_at: now,
    updated_at: now,
  });
  return present(gateway, row);
}

export async function deleteOAuthApp(gateway: Pick<Gateway, 'db' | 'catalog'>, organizationId: string, slug: string): Promise<void> {
  providerOf(gateway, slug);
  if (!(await deleteOAuthAppRow(gateway.db, organizationId, slug))) throw noApp(slug);
}

/** The operator's app from the environment variables the catalog names, when both are set. */
function managedClient(provider: Provider): ResolvedOAuthClient | null {
  const managed = provider.managed_oauth_app;
  const clientId = managed && process.env[managed.client_id_env];
  const clientSecret = managed && process.env[managed.client_secret_env];
  if (!clientId || !clientSecret) return null;
  return { client_id: clientId, client_secret: clientSecret, scopes: [], managed: true };
}

/**
 * The OAuth client for a provider: the organization's own app, else the operator's managed app, else
 * 409 oauth_app_required. Scopes are the organization app's (empty: the provider's defaults apply).
 */
export async function resolveOAuthClient(
  gateway: Pick<Gateway, 'db' | 'keyring' | 'catalog'>,
  organizationId: string,
  providerSlug: string,
): Promise<ResolvedOAuthClient> {
  const provider = providerOf(gateway, providerSlug);
  const own = await findOAuthAppRow(gateway.db, organizationId, providerSlug);
  if (own) {
    return {
      client_id: own.client_id,
      client_secret: gateway.keyring.decrypt(own.client_secret),
      scopes: own.scopes,
      managed: false,
    };
  }
  const managed = managedClient(provider);
  if (managed) return managed;
  throw new GatewayError(
    'oauth_app_required',
    `no OAuth app for ${providerSlug}: configure one with PUT /v1/providers/${providerSlug}/oauth-app (the service has no managed app for it)`,
  );
}
