import type { ConnectionStatus } from '../../src/db/repos/connections.js';
import { markNeedsReauth, revokeConnection, saveConsentedConnection } from '../../src/domain/connections/connections.js';
import type { StoredCredential } from '../../src/domain/connections/credentials.js';
import type { Gateway } from '../../src/domain/gateway.js';

export interface ConnectionWanted {
  organizationId: string;
  principal: string;
  provider: string;
  status?: ConnectionStatus;
  scopes?: string[];
  credential?: StoredCredential;
  /** When it is made (its grant too, and the principal's use of it); default now. */
  at?: number;
  /** When it went to needs_reauth or was revoked; default `at`. */
  changedAt?: number;
}

/**
 * A connection in the status a test wants, the way the product gets it there: attached as consent
 * attaches one (with its grant and event), then marked needs_reauth or revoked by the domain. An API-key
 * credential by default, so revoking it asks no provider. Returns its id.
 */
export async function connectionIn(gateway: Gateway, wanted: ConnectionWanted): Promise<string> {
  const { organizationId, principal, provider, status = 'active', scopes = [], at = Date.now() } = wanted;
  const changedAt = wanted.changedAt ?? at;
  const credential = wanted.credential ?? { type: 'api_key', secret: 'provider-secret' };
  const made = await saveConsentedConnection(gateway, { organizationId, principal, provider, accountId: null, label: null, credential, scopes }, at);
  if (status === 'needs_reauth') await markNeedsReauth(gateway, made.id, changedAt);
  if (status === 'revoked') await revokeConnection(gateway, organizationId, made.id, null, changedAt);
  return made.id;
}
