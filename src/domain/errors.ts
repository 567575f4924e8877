/** Every error code a client can see, with its HTTP status and title (the API's codes, docs/api.md). */
export const errorCodes = {
  invalid_input: [400, 'Invalid input'],
  principal_required: [400, 'Principal required'],
  unauthenticated: [401, 'Unauthenticated'],
  invalid_token: [401, 'Invalid token'],
  connection_invalid: [401, 'Connection needs re-authorization'],
  no_credential: [402, 'No credential'],
  principal_forbidden: [403, 'Principal forbidden'],
  grant_required: [403, 'Grant required'],
  connection_required: [403, 'Connection required'],
  scope_required: [403, 'Scope required'],
  connection_forbidden: [403, 'Connection forbidden'],
  no_active_organization: [403, 'No active organization'],
  untrusted_origin: [403, 'Untrusted origin'],
  role_forbidden: [403, 'Role forbidden'],
  approval_required: [403, 'Approval required'],
  approval_declined: [403, 'Approval declined'],
  approval_expired: [403, 'Approval expired'],
  task_not_found: [404, 'Task not found'],
  connection_not_found: [404, 'Connection not found'],
  miss: [404, 'No route'],
  capability_not_found: [404, 'Capability not found'],
  call_not_found: [404, 'Call not found'],
  capture_not_found: [404, 'Capture not found'],
  provider_not_found: [404, 'Provider not found'],
  oauth_app_not_found: [404, 'OAuth app not found'],
  connect_session_not_found: [404, 'Connect session not found'],
  webhook_not_found: [404, 'Webhook not found'],
  token_not_found: [404, 'Token not found'],
  route_not_found: [404, 'Route not found'],
  method_not_allowed: [405, 'Method not allowed'],
  request_timeout: [408, 'Request timeout'],
  catalog_version_mismatch: [409, 'Catalog version mismatch'],
  connection_ambiguous: [409, 'Connection ambiguous'],
  idempotency_in_flight: [409, 'Idempotent request in flight'],
  oauth_app_required: [409, 'OAuth app required'],
  webhook_limit_reached: [409, 'Webhook limit reached'],
  approval_mismatch: [409, 'Approval mismatch'],
  task_retired: [410, 'Task retired'],
  task_broken: [410, 'Task broken'],
  payload_too_large: [413, 'Payload too large'],
  credential_refused: [422, 'Credential refused'],
  webhook_target_refused: [422, 'Webhook target refused'],
  rate_limited: [429, 'Rate limited'],
  internal_error: [500, 'Internal error'],
  upstream_error: [502, 'Upstream error'],
  probe_unavailable: [503, 'Probe unavailable'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof errorCodes;

export interface InvalidParam {
  name: string;
  reason: string;
}

/** The one error type the domain throws; src/http turns it into problem+json. */
export class GatewayError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    detail: string,
    /** Recovery members added to the problem body: connect_url, reconnect_url, candidates, invalid_params. */
    readonly extras: Record<string, unknown> = {},
    /** Response headers the error needs, such as Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    [this.status, this.title] = errorCodes[code];
  }
}

export function invalidInput(detail: string, invalidParams: InvalidParam[] = []): GatewayError {
  return new GatewayError('invalid_input', detail, invalidParams.length ? { invalid_params: invalidParams } : {});
}
