import {
  bindConnectSession,
  claimConnectAttempt,
  completeConnectSession,
  findConnectSessionById,
  findConnectSessionBySecretHash,
  findConnectSessionByStateHash,
  recordConnectFailure,
  type ConnectSessionRow,
} from '../../db/repos/connect-sessions.js';
import { findOrganizationById } from '../../db/repos/organizations.js';
import { exchangeCode, OAuthRefused, startAuthorization, type OAuth2Auth, type OAuthTokens } from '../../providers/oauth2.js';
import type { Provider } from '../catalog/types.js';
import { saveConsentedConnection } from '../connections/connections.js';
import type { Connection } from '../connections/present.js';
import { probeCredential } from '../connections/probe.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { oauthRedirectUri, oauthLimits, resolveOAuthClient } from '../oauth-apps.js';
import { hashSecret, safeEqual } from '../secrets.js';
import { CONNECT_LINK_PREFIX, oauthProvider, sessionStatus } from './sessions.js';

/**
 * The end user's side of a connect session (docs/connect-flow.md). Loading the
 * link only reads; Continue binds the session to the browser (a cookie whose hash is stored) and starts
 * an authorization attempt (state hash, encrypted PKCE verifier); the callback must come back to the
 * same browser with that state, and a completed consent uses the session up.
 *
 * Errors here are shown to a person on a hosted page, so their details are written for one.
 */

/** What the consent, recovery and done pages show about a session. */
export interface ConsentView {
  session: ConnectSessionRow;
  organizationName: string;
  provider: Provider & { auth: OAuth2Auth };
  scopes: string[];
}

export type ConsentOutcome =
  | { kind: 'completed'; view: ConsentView; connection: Connection; redirect: string | null }
  /** Denied at the provider, or the exchange or account check failed; the session stays pending. */
  | { kind: 'denied' | 'failed'; view: ConsentView; retryable: boolean };

const linkProblem = (detail: string) => new GatewayError('connect_session_not_found', detail);

const UNKNOWN = 'This link is not valid. Check that you opened the whole link, or ask the app that sent you here for a new one.';
const USED = 'This link has already been used to connect an account. Links work only once; ask the app that sent you here for a new one if you need to connect again.';
const EXPIRED = 'This link has expired. Links are valid for a short time only; ask the app that sent you here for a new one.';
const UNAVAILABLE = 'Connecting accounts is not available for this app right now. Ask the app that sent you here for help.';
const UNKNOWN_RESPONSE = 'This sign-in response is not valid or was already handled. Start again from the link you were given.';
const OTHER_BROWSER = 'This sign-in was started in a different browser, or its cookie was removed. Open the link again in this browser and press Continue.';

/** Refuses a session that cannot be continued, naming why. */
function usable(row: ConnectSessionRow | null, now: number): ConnectSessionRow {
  if (!row) throw linkProblem(UNKNOWN);
  const status = sessionStatus(row, now);
  if (status === 'completed') throw linkProblem(USED);
  if (status === 'expired') throw linkProblem(EXPIRED);
  return row;
}

async function viewOf(gateway: Pick<Gateway, 'db' | 'catalog'>, session: ConnectSessionRow): Promise<ConsentView> {
  const organization = await findOrganizationById(gateway.db, session.organization_id);
  if (!organization || organization.status !== 'active') throw linkProblem(UNAVAILABLE);
  return {
    session,
    organizationName: organization.display_name,
    provider: oauthProvider(gateway, session.provider),
    scopes: session.scopes,
  };
}

function bySecret(gateway: Pick<Gateway, 'db'>, secret: string) {
  // Anything not shaped like a link secret cannot match; no need to hash and look it up.
  return secret.startsWith(CONNECT_LINK_PREFIX) ? findConnectSessionBySecretHash(gateway.db, hashSecret(secret)) : Promise.resolve(null);
}

/** GET of the link: what the consent page shows. Reads only, so a mail scanner's prefetch changes nothing. */
export async function openConnectLink(gateway: Pick<Gateway, 'db' | 'catalog'>, secret: string, now = Date.now()): Promise<ConsentView> {
  return viewOf(gateway, usable(await bySecret(gateway, secret), now));
}

async function startAttempt(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  session: ConnectSessionRow,
  browserSecret: string,
  now: number,
): Promise<string> {
  const { provider } = await viewOf(gateway, session);
  const client = await resolveOAuthClient(gateway, session.organization_id, provider.slug);
  const attempt = await startAuthorization(provider.auth, client.client_id, oauthRedirectUri(gateway.config), session.scopes);
  const bound = await bindConnectSession(
    gateway.db,
    session.id,
    { browser_hash: hashSecret(browserSecret), oauth_state_hash: hashSecret(attempt.state), code_verifier: gateway.keyring.encrypt(attempt.codeVerifier) },
    now,
  );
  if (!bound) usable(await findConnectSessionById(gateway.db, session.id), now);
  return attempt.url;
}

/**
 * Continue on the consent page: binds the session to this browser and returns the provider's
 * authorization URL. Pressing it again (or in another browser) starts a new attempt; only the newest
 * attempt's callback is accepted.
 */
export async function beginConsent(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  secret: string,
  browserSecret: string,
  now = Date.now(),
): Promise<string> {
  return startAttempt(gateway, usable(await bySecret(gateway, secret), now), browserSecret, now);
}

function sameBrowser(session: ConnectSessionRow, browserSecret: string | undefined): boolean {
  return !!browserSecret && !!session.browser_hash && safeEqual(session.browser_hash, hashSecret(browserSecret));
}

/** "Try again" on the recovery page: only from the browser the session is bound to, while it is pending. */
export async function retryConsent(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>,
  sessionId: string,
  browserSecret: string | undefined,
  now = Date.now(),
): Promise<string> {
  const session = usable(await findConnectSessionById(gateway.db, sessionId), now);
  if (!sameBrowser(session, browserSecret)) throw linkProblem(OTHER_BROWSER);
  return startAttempt(gateway, session, browserSecret!, now);
}

function withCompletion(redirectUri: string, sessionId: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('session_id', sessionId);
  url.searchParams.set('status', 'completed');
  return url.toString();
}

/**
 * The provider's redirect back: finds the attempt by its state, checks the browser and the expiry, and
 * takes the attempt (so a replay finds nothing). Then the code is exchanged with the PKCE verifier, the
 * account probed, and the connection saved (created, or restored for the same account); the session is
 * completed with it. Denial and failures leave the session pending for a retry.
 */
export async function completeConsent(
  gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog' | 'log'>,
  parameters: URLSearchParams,
  browserSecret: string | undefined,
  now = Date.now(),
): Promise<ConsentOutcome> {
  const state = parameters.get('state');
  const stateHash = state ? hashSecret(state) : null;
  const found = stateHash ? await findConnectSessionByStateHash(gateway.db, stateHash) : null;
  if (!found) throw linkProblem(UNKNOWN_RESPONSE);
  const session = usable(found, now);
  if (!sameBrowser(session, browserSecret)) throw linkProblem(OTHER_BROWSER);
  if (!(await claimConnectAttempt(gateway.db, session.id, stateHash!, now))) throw linkProblem(USED);
  const view = await viewOf(gateway, session);
  const { provider } = view;
  const fail = async (kind: 'denied' | 'failed', reason: string): Promise<ConsentOutcome> => {
    await recordConnectFailure(gateway.db, session.id, reason, now);
    return { kind, view, retryable: sessionStatus(session, Date.now()) === 'pending' };
  };

  const client = await resolveOAuthClient(gateway, session.organization_id, provider.slug);
  let tokens: OAuthTokens;
  try {
    tokens = await exchangeCode(
      provider.auth,
      client,
      { parameters, expectedState: state!, redirectUri: oauthRedirectUri(gateway.config), codeVerifier: gateway.keyring.decrypt(session.code_verifier!) },
      oauthLimits(gateway.config),
    );
  } catch (err) {
    if (err instanceof OAuthRefused && err.error === 'access_denied') return fail('denied', 'access_denied');
    gateway.log.warn({ session: session.id, provider: provider.slug, reason: (err as Error).message }, 'connect: authorization failed');
    return fail('failed', err instanceof OAuthRefused ? `refused: ${err.error}` : 'provider unavailable');
  }

  let account;
  try {
    account = await probeCredential(provider, tokens.access_token, gateway.config.upstream.timeout_ms);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return fail('failed', `account check: ${err.code}`);
  }
  const connection = await saveConsentedConnection(gateway, {
    organizationId: session.organization_id,
    principal: session.principal,
    provider: provider.slug,
    accountId: account.account_id,
    label: account.account_name,
    credential: { type: 'oauth2', ...tokens },
    scopes: tokens.scopes ?? view.scopes,
  }, now);
  if (!(await completeConnectSession(gateway.db, session.id, connection.id, now))) throw linkProblem(USED);
  return { kind: 'completed', view, connection, redirect: session.redirect_uri ? withCompletion(session.redirect_uri, session.id) : null };
}
