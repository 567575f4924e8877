import { buildProbeRequest } from '../../providers/http-task.js';
import { sendUpstream, UpstreamUnreachable, type UpstreamAnswer } from '../../providers/upstream.js';
import type { Provider } from '../catalog/types.js';
import { GatewayError } from '../errors.js';

export interface ProbedAccount {
  account_id: string | null;
  account_name: string | null;
}

/** RFC 6901 lookup; a scalar becomes a string, anything else (or nothing) null. */
function pointerValue(document: unknown, pointer: string | undefined): string | null {
  if (pointer === undefined) return null;
  let node = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return null;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string' || typeof node === 'number' ? String(node) : null;
}

/**
 * Checks a credential with the provider's probe and reads the account it belongs to. Refused (401/403):
 * 422 credential_refused. Unreachable, timed out, or any other non-2xx answer: 503 probe_unavailable.
 * A provider without a probe cannot check: the credential is taken as given, with no account id.
 */
export async function probeCredential(provider: Provider, secret: string, timeoutMs: number): Promise<ProbedAccount> {
  if (!provider.probe) return { account_id: null, account_name: null };
  let answer: UpstreamAnswer;
  try {
    answer = await sendUpstream(buildProbeRequest(provider, secret, timeoutMs));
  } catch (err) {
    const reason = err instanceof UpstreamUnreachable && err.reason === 'timeout' ? 'did not answer in time' : 'could not be reached';
    throw new GatewayError('probe_unavailable', `${provider.name} ${reason} to check the credential; try again later`);
  }
  if (answer.status === 401 || answer.status === 403) {
    throw new GatewayError('credential_refused', `${provider.name} refused the credential (HTTP ${answer.status})`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new GatewayError('probe_unavailable', `${provider.name} answered the credential check with HTTP ${answer.status}; try again later`);
  }
  return { account_id: pointerValue(answer.body, provider.probe.account_id), account_name: pointerValue(answer.body, provider.probe.account_name) };
}
