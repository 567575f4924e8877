import { insertUserToken, pageHeldTokens, revokeUserTokenRow } from '../db/repos/user-tokens.js';
import { USER_TOKEN_PREFIX } from './callers.js';
import { GatewayError, invalidInput } from './errors.js';
import type { Gateway } from './gateway.js';
import { newId } from './ids.js';
import { pageQuery, toPage } from './paging.js';
import { recordPrincipalUse } from './principal-directory.js';
import { PRINCIPAL_FORMAT, PRINCIPAL_PATTERN } from './principals.js';
import { hashSecret, newSecret } from './secrets.js';
import { isoTime } from './time.js';

/** Token lifetime in seconds (the `expires_in` bounds of POST /v1/tokens). */
export const TOKEN_LIFETIME = { min: 60, max: 86400, default: 3600 } as const;

/** issued_by of tokens issued with `gateway tokens issue`: no API key was involved. */
export const CLI_ISSUER = 'cli';

/** The 201 of POST /v1/tokens; the only time the secret is shown. */
export interface UserBoundToken {
  id: string;
  token: string;
  principal: string;
  expires_at: string;
}

export interface HeldUserBoundToken {
  id: string;
  principal: string;
  expires_at: string;
  issued_by: string;
}

export interface HeldUserBoundTokens {
  tokens: HeldUserBoundToken[];
  next_cursor: string | null;
}

export interface NewUserBoundToken {
  principal: string;
  expires_in?: number;
}

/** The HTTP route validates with joi first; this guards every other caller (the CLI) with the same rules. */
function checkRequest({ principal, expires_in = TOKEN_LIFETIME.default }: NewUserBoundToken): number {
  if (!PRINCIPAL_PATTERN.test(principal)) {
    throw invalidInput(`principal "${principal}" ${PRINCIPAL_FORMAT}`, [
      { name: 'principal', reason: PRINCIPAL_FORMAT },
    ]);
  }
  if (!Number.isInteger(expires_in) || expires_in < TOKEN_LIFETIME.min || expires_in > TOKEN_LIFETIME.max) {
    throw invalidInput(`expires_in must be a whole number of seconds from ${TOKEN_LIFETIME.min} to ${TOKEN_LIFETIME.max}`, [
      { name: 'expires_in', reason: `must be an integer from ${TOKEN_LIFETIME.min} to ${TOKEN_LIFETIME.max}` },
    ]);
  }
  return expires_in;
}

/**
 * Issues a principal-bound token. Only its hash is stored; issuing names the principal, so it also
 * enters the principal directory, in the same transaction.
 */
export async function issueUserToken(
  gateway: Pick<Gateway, 'db'>,
  organizationId: string,
  request: NewUserBoundToken,
  issuedBy: string,
  now = Date.now(),
): Promise<UserBoundToken> {
  const lifetime = checkRequest(request);
  const token = newSecret(USER_TOKEN_PREFIX);
  const row = {
    id: newId('tok', now),
    organization_id: organizationId,
    principal: request.principal,
    token_hash: hashSecret(token),
    issued_by: issuedBy,
    expires_at: now + lifetime * 1000,
    created_at: now,
  };
  await gateway.db.transaction(async (transaction) => {
    await insertUserToken(transaction, row);
    await recordPrincipalUse(transaction, organizationId, row.principal, now);
  });
  return { id: row.id, token, principal: row.principal, expires_at: isoTime(row.expires_at) };
}

/** Live tokens (neither expired nor revoked), newest first, never their secret. */
export async function listHeldTokens(gateway: Pick<Gateway, 'db'>, organizationId: string, cursor?: string, now = Date.now()): Promise<HeldUserBoundTokens> {
  const page = toPage(await pageHeldTokens(gateway.db, organizationId, now, pageQuery(cursor)), (row) => row.id);
  return {
    tokens: page.items.map((row) => ({ id: row.id, principal: row.principal, expires_at: isoTime(row.expires_at), issued_by: row.issued_by })),
    next_cursor: page.next_cursor,
  };
}

/** Revocation is immediate: the auth lookup reads revoked_at on every request. */
export async function revokeUserToken(gateway: Pick<Gateway, 'db'>, organizationId: string, id: string, now = Date.now()): Promise<void> {
  if (!(await revokeUserTokenRow(gateway.db, organizationId, id, now))) {
    throw new GatewayError('token_not_found', `no live token ${id} in this organization`);
  }
}
