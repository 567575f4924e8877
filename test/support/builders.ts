import type { ConnectionStatus } from '../../src/db/repos/connections.js';
import { markNeedsReauth, revokeConnection, saveConsentedConnection } from '../../src/domain/connections/connections.js';
import type { StoredCredential } from '../../src/domain/connections/credentials.js';
import type { Gateway } from '../../src/domain/gateway.js';

/**
 * Tests write no rows with SQL: a state is made the way the product makes it, by a domain function
 * (suspending an organization, revoking, issuing a token) or, for states only time produces, by a
 * repository function at a past clock. The builders here combine them where a test needs it often;
 * `later()` of ./clock.ts makes time pass between API requests; ./storage.ts reads bytes at rest.
 */

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
