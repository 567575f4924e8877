import { buildTaskRequest } from '../../providers/http-task.js';
import { builtinHandlers } from '../../providers/builtin/index.js';
import { InputRefused, RequestOutsideProvider } from '../../providers/errors.js';
import { sendUpstream, UpstreamUnreachable } from '../../providers/upstream.js';
import { ensureFreshCredential } from '../connections/oauth.js';
import { GatewayError, invalidInput } from '../errors.js';
import type { Gateway } from '../gateway.js';
import type { Plan } from './credentials.js';

/** How one route's try ended. */
export type Attempt =
  /** `json`: the output's JSON bytes as the provider sent them, when it came as JSON. */
  | { kind: 'hit'; output: unknown; json?: Buffer; status: number; secrets: string[] }
  /**
   * `reason` names the route's provider and what failed ("frankfurter: connect refused", "newsapi: HTTP 503");
   * `next`: the fault may be worked around on another route (network, timeout, oversized answer, 5xx, 429).
   */
  | { kind: 'fault'; reason: string; status: number | null; next: boolean; secrets: string[] }
  /** The provider refused the customer's own credential (401/403). */
  | { kind: 'refused'; status: number; secrets: string[] }
  /** The service's own answer, not a provider's fault (a refused token refresh, input a handler rejects). */
  | { kind: 'answered'; error: GatewayError; secrets: string[] };

async function runBuiltin(plan: Plan): Promise<Attempt> {
  const handler = builtinHandlers[plan.task.handler ?? ''];
  if (!handler) return { kind: 'fault', reason: `${plan.task.provider}: no built-in handler ${plan.task.handler}`, status: null, next: true, secrets: [] };
  try {
    return { kind: 'hit', output: await handler(plan.input), status: 200, secrets: [] };
  } catch (err) {
    if (err instanceof InputRefused) return { kind: 'answered', error: invalidInput(err.message, err.problems), secrets: [] };
    return { kind: 'fault', reason: `${plan.task.provider}: ${plan.task.id} failed`, status: null, next: true, secrets: [] };
  }
}

/** The secret to send: a connection's is read (and renewed when its access token expired) just before the call. */
async function secretFor(gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>, plan: Plan): Promise<string> {
  return plan.connection ? ensureFreshCredential(gateway, plan.connection) : plan.secret!;
}

/** Tries one route once. Never throws for what a provider does; the caller decides what the outcome means. */
export async function attempt(gateway: Pick<Gateway, 'config' | 'db' | 'keyring' | 'catalog'>, plan: Plan): Promise<Attempt> {
  if (plan.task.kind === 'utility') return runBuiltin(plan);
  const slug = plan.task.provider;
  const needsSecret = plan.identity !== 'anonymous';
  let secret: string | undefined;
  try {
    secret = needsSecret ? await secretFor(gateway, plan) : undefined;
  } catch (err) {
    if (err instanceof GatewayError && err.code === 'upstream_error') return { kind: 'fault', reason: `${slug}: ${err.message}`, status: null, next: true, secrets: [] };
    if (err instanceof GatewayError) return { kind: 'answered', error: err, secrets: [] };
    throw err;
  }
  const secrets = secret === undefined ? [] : [secret];
  let request;
  try {
    const { timeout_ms: timeoutMs, max_response_bytes: maxResponseBytes, max_response_nodes: maxResponseValues } = gateway.config.upstream;
    request = buildTaskRequest(plan.provider!, plan.task.request!, plan.input, secret, { timeoutMs, maxResponseBytes, maxResponseValues });
  } catch (err) {
    if (err instanceof RequestOutsideProvider) return { kind: 'fault', reason: err.message, status: null, next: true, secrets };
    if (err instanceof InputRefused) return { kind: 'answered', error: invalidInput(err.message, err.problems), secrets };
    throw err;
  }
  // The rendered credential (e.g. "Bearer <key>", or a key in the URL) is as secret as the key.
  for (const value of Object.values(request.headers)) if (secret !== undefined && value.includes(secret)) secrets.push(value);
  let answer;
  try {
    answer = await sendUpstream(request);
  } catch (err) {
    if (err instanceof UpstreamUnreachable) return { kind: 'fault', reason: `${slug}: ${err.message}`, status: null, next: true, secrets };
    throw err;
  }
  const { status, body, json } = answer;
  if ((status >= 200 && status < 300) || (status === 404 && plan.task.not_found === 'empty')) return { kind: 'hit', output: body, json, status, secrets };
  if ((status === 401 || status === 403) && plan.customer) return { kind: 'refused', status, secrets };
  return { kind: 'fault', reason: `${slug}: HTTP ${status}`, status, next: status >= 500 || status === 429, secrets };
}
