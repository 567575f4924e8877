import * as oauth from 'oauth4webapi';
import type { Provider, ProviderAuth } from './shapes.js';
import { upstreamFetch, UpstreamUnreachable, type UpstreamLimits } from './upstream.js';

/**
 * OAuth2 authorization code with PKCE, refresh and RFC 7009 revocation, through oauth4webapi (the
 * protocol is never hand-written here). Its requests are sent as every outbound request is (upstream.ts):
 * within the limits, no redirect followed. Like a provider's base URL, its endpoints come from the catalog the
 * operator wrote, not from a customer, so no address is refused: a self-hoster's OAuth server may well be on
 * an internal network.
 */

export type OAuth2Auth = Extract<ProviderAuth, { type: 'oauth2' }>;

export interface OAuthClient {
  client_id: string;
  client_secret: string;
}

/** What the gateway keeps of a token response; `expires_at` is epoch milliseconds. */
export interface OAuthTokens {
  access_token: string;
  refresh_token?: string;
  expires_at?: number;
  /** Scopes the provider says it granted, when it says so. */
  scopes?: string[];
}

/** The provider answered and refused (an OAuth error response, or 401/403 on the probe). */
export class OAuthRefused extends Error {
  constructor(readonly error: string) {
    super(`the provider refused: ${error}`);
  }
}

/** The provider could not be asked: network error, timeout, an answer over the limit, 5xx or an answer that is not OAuth. */
export class OAuthUnavailable extends Error {}

export interface AuthorizationAttempt {
  state: string;
  codeVerifier: string;
  url: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isOAuth2(provider: Provider): provider is Provider & { auth: OAuth2Auth } {
  return provider.auth.type === 'oauth2';
}

/**
 * The catalog names endpoints, not an issuer; the authorization endpoint's origin stands in for it, which
 * is what providers that send RFC 9207 `iss` put there.
 */
function authorizationServer(auth: OAuth2Auth): oauth.AuthorizationServer {
  return {
    issuer: new URL(auth.authorize_url).origin,
    authorization_endpoint: auth.authorize_url,
    token_endpoint: auth.token_url,
    revocation_endpoint: auth.revoke_url,
  };
}

/**
 * Requests go through upstreamFetch (its deadline replaces oauth4webapi's signal). Plain http:// is
 * allowed only towards loopback (local development and tests), never elsewhere.
 */
function requestOptions(url: string, limits: UpstreamLimits) {
  const parsed = new URL(url);
  const insecureLoopback = parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
  return { [oauth.customFetch]: upstreamFetch(limits), [oauth.allowInsecureRequests]: insecureLoopback };
}

function clientAuthentication(auth: OAuth2Auth, client: OAuthClient): oauth.ClientAuth {
  return auth.token_auth === 'client_secret_post' ? oauth.ClientSecretPost(client.client_secret) : oauth.ClientSecretBasic(client.client_secret);
}

function joinScopes(auth: OAuth2Auth, scopes: string[]): string {
  return scopes.join(auth.scope_separator ?? ' ');
}

function toTokens(auth: OAuth2Auth, response: oauth.TokenEndpointResponse, now = Date.now()): OAuthTokens {
  const scope = typeof response.scope === 'string' ? response.scope : undefined;
  return {
    access_token: response.access_token,
    refresh_token: response.refresh_token,
    expires_at: typeof response.expires_in === 'number' ? now + response.expires_in * 1000 : undefined,
    scopes: scope === undefined ? undefined : scope.split(auth.scope_separator ?? ' ').filter(Boolean),
  };
}

/** Maps oauth4webapi's and the request's failures onto refused (the provider said no) or unavailable. */
function classify(err: unknown): Error {
  if (err instanceof UpstreamUnreachable) return new OAuthUnavailable(err.message);
  if (err instanceof oauth.ResponseBodyError && err.status < 500) return new OAuthRefused(err.error);
  if (err instanceof oauth.AuthorizationResponseError) return new OAuthRefused(err.error);
  if (err instanceof oauth.WWWAuthenticateChallengeError && err.status < 500) {
    return new OAuthRefused(err.cause[0]?.parameters.error ?? 'unauthorized');
  }
  const reason = err instanceof Error ? err.name : 'unknown';
  return new OAuthUnavailable(`the provider could not be reached or answered unexpectedly (${reason})`);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw classify(err);
  }
}

/** A fresh state and PKCE verifier, and the provider's authorization URL carrying them (S256 challenge). */
export async function startAuthorization(
  auth: OAuth2Auth,
  clientId: string,
  redirectUri: string,
  scopes: string[],
): Promise<AuthorizationAttempt> {
  const state = oauth.generateRandomState();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(auth.authorize_url);
  const params: Record<string, string> = {
    ...auth.authorize_params,
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state,
  };
  if (scopes.length) params.scope = joinScopes(auth, scopes);
  if (auth.pkce) {
    params.code_challenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
    params.code_challenge_method = 'S256';
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { state, codeVerifier, url: url.toString() };
}

/**
 * Validates the authorization response against the expected state (an `error` there is OAuthRefused)
 * and exchanges its code for tokens with the PKCE verifier.
 */
export async function exchangeCode(
  auth: OAuth2Auth,
  client: OAuthClient,
  callback: { parameters: URLSearchParams; expectedState: string; redirectUri: string; codeVerifier: string },
  limits: UpstreamLimits,
): Promise<OAuthTokens> {
  const as = authorizationServer(auth);
  const oauthClient: oauth.Client = { client_id: client.client_id };
  return guarded(async () => {
    const parameters = oauth.validateAuthResponse(as, oauthClient, callback.parameters, callback.expectedState);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      oauthClient,
      clientAuthentication(auth, client),
      parameters,
      callback.redirectUri,
      auth.pkce ? callback.codeVerifier : oauth.nopkce,
      requestOptions(auth.token_url, limits),
    );
    return toTokens(auth, await oauth.processAuthorizationCodeResponse(as, oauthClient, response));
  });
}

/** A new access token from a refresh token; a provider that rotates refresh tokens returns the new one. */
export async function refreshTokens(auth: OAuth2Auth, client: OAuthClient, refreshToken: string, limits: UpstreamLimits): Promise<OAuthTokens> {
  const as = authorizationServer(auth);
  const oauthClient: oauth.Client = { client_id: client.client_id };
  return guarded(async () => {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      oauthClient,
      clientAuthentication(auth, client),
      refreshToken,
      requestOptions(auth.token_url, limits),
    );
    return toTokens(auth, await oauth.processRefreshTokenResponse(as, oauthClient, response));
  });
}

/** RFC 7009 revocation of one token at the provider's revoke_url (the caller checks that one is declared). */
export async function revokeToken(
  auth: OAuth2Auth & { revoke_url: string },
  client: OAuthClient,
  token: string,
  hint: 'access_token' | 'refresh_token',
  limits: UpstreamLimits,
): Promise<void> {
  const as = authorizationServer(auth);
  const oauthClient: oauth.Client = { client_id: client.client_id };
  await guarded(async () => {
    const response = await oauth.revocationRequest(as, oauthClient, clientAuthentication(auth, client), token, {
      ...requestOptions(auth.revoke_url, limits),
      additionalParameters: { token_type_hint: hint },
    });
    await oauth.processRevocationResponse(response);
  });
}
