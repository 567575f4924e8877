import { errorCodes, type ErrorCode } from '../domain/errors.js';
import { html } from './html.js';
import { renderPage, type HostedPage } from './layout.js';

/**
 * What each error code means and what to do about it: the page a problem's `type` URL
 * (`<public url>/problems/<code>`) answers, for the developer who follows it. docs/api.md has the details.
 */
const meanings: Record<ErrorCode, string> = {
  invalid_input: 'The request is malformed or a value breaks a rule: invalid_params names each field and why. Fix the fields and send it again.',
  principal_required: 'The task acts in an end user\'s account: name the user with svc-principal or receipt_options.principal (user:<id>).',
  unauthenticated: 'No bearer credential was sent. Send Authorization: Bearer <key or token>.',
  invalid_token: 'The key or token is unknown, revoked or expired. Use a live one.',
  connection_invalid: 'The provider refused the connection\'s credential. Open reconnect_url to sign in again on the same account.',
  no_credential: 'No connection can run this task and the platform credential was not allowed. Attach a connection, or send svc-fallback: platform to run on the platform credential at its price.',
  principal_forbidden: 'A principal-bound token acts only as its own principal. Leave the principal out, or name the token\'s own.',
  grant_required: 'The end user has not connected the provider. Open connect_url when present, or create a connect session for the same person.',
  connection_required: 'The provider needs a credential: attach a connection (POST /v1/connections) or send svc-credential.',
  scope_required: 'The connection lacks scopes the task needs. Open connect_url to add them on the same account.',
  connection_forbidden: 'The connection named is not the caller\'s to use. Name one of your own, or leave svc-connection out.',
  no_active_organization: 'The organization of this credential is suspended.',
  untrusted_origin: 'The browser origin is not on the organization\'s trusted list (gateway orgs origins).',
  role_forbidden: 'The key\'s role (or a principal-bound token) cannot call this operation. Use a key with the role named.',
  task_not_found: 'No task with this id is in the catalog. Find one with POST /v1/discover or GET /v1/tasks.',
  connection_not_found: 'No connection with this id (or account) in the organization.',
  miss: 'No route can run the task under the routing headers sent (svc-only, svc-max-cost, svc-zero-retention). The call is recorded as a miss.',
  capability_not_found: 'No capability with this name is in the catalog.',
  call_not_found: 'No call with this id in the organization.',
  capture_not_found: 'No capture for this call: the call is unknown, or it ran with svc-zero-retention: true.',
  provider_not_found: 'No provider with this slug is in the catalog.',
  oauth_app_not_found: 'The organization has no OAuth app for this provider.',
  connect_session_not_found: 'No connect session with this id, or it is no longer usable.',
  webhook_not_found: 'No webhook with this id in the organization.',
  token_not_found: 'No principal-bound token with this id in the organization.',
  route_not_found: 'No operation at this method and path. GET /v1/openapi.json lists them all.',
  approval_required: 'The organization asks its end user to approve this run first. Give approval_url to the user; once they approve, send the same run again with svc-approval: <approval_id>.',
  approval_declined: 'The end user declined this run at the approval page. Do not run it; ask again only if the user wants to.',
  approval_expired: 'The approval was used already or is past its expiry (approvals.ttl_s). Send the run without svc-approval to ask for a new one.',
  approval_mismatch: 'The approval was given for another run: another task, input, principal or routing headers. Send exactly the run that was approved, or ask for a new approval.',
  method_not_allowed: 'The path exists but not with this method: the Allow header names the one to use.',
  request_timeout: 'The request did not arrive in time (its headers within server.headers_timeout_ms, the whole of it within server.payload_timeout_ms). Send it again, faster.',
  catalog_version_mismatch: 'The catalog version pinned with svc-version is not the one served: catalog_version names it.',
  connection_ambiguous: 'Several connections could run this and none is the default: choose one of candidates with svc-connection, or make one the default.',
  idempotency_in_flight: 'A request with this idempotency-key is still running. Retry later to get its answer.',
  oauth_app_required: 'No OAuth app can run the consent for this provider: the organization must set its own (PUT /v1/providers/{slug}/oauth-app).',
  webhook_limit_reached: 'The organization has as many webhooks as webhooks.max_per_org allows. Delete one first.',
  task_retired: 'The task is retired. Find another with POST /v1/discover.',
  task_broken: 'The task is marked broken. Find another with POST /v1/discover.',
  payload_too_large: 'The request (its body, or its headers) is larger than the gateway accepts (limits.max_body_bytes for bodies).',
  credential_refused: 'The provider refused the credential when it was checked. Send a valid one.',
  webhook_target_refused: 'The webhook URL is refused: it must be https, carry no credentials and not point at a private, loopback or metadata address.',
  rate_limited: 'Too many requests of this kind this minute, or too many of the organization\'s requests waiting for its fair share of the gateway: retry after Retry-After seconds. RateLimit-Policy, where present, names the budgets.',
  internal_error: 'The gateway failed to handle the request; it has been logged. Try again later.',
  upstream_error: 'No route answered: detail says what failed where, per provider (unreachable, no answer in time, an HTTP error, an answer over a limit). The call is recorded as a fault.',
  probe_unavailable: 'The provider could not be reached to check the credential. Try again later.',
};

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorCodes, code);
}

/** The short page of one error code. */
export function problemPage(code: ErrorCode): HostedPage {
  const [status, title] = errorCodes[code];
  return renderPage({
    title: `${title} (${code})`,
    body: html`
<h1>${title}</h1>
<p class="muted small">code <code>${code}</code>, HTTP ${String(status)}</p>
<p>${meanings[code]}</p>`,
    footer: 'An error of the task gateway API. Every error is application/problem+json with this page as its type.',
  });
}
