import { findActiveKeyByHash } from '../db/repos/api-keys.js';
import { findLiveTokenByHash } from '../db/repos/user-tokens.js';
import type { Role } from '../db/repos/api-keys.js';
import { API_KEY_PREFIX } from './api-keys.js';
import { decodeApprovalPolicy, type ApprovalPolicy } from './approvals/policy.js';
import { GatewayError } from './errors.js';
import type { Gateway } from './gateway.js';
import { hashSecret, safeEqual } from './secrets.js';
import { isoTime } from './time.js';

export const USER_TOKEN_PREFIX = 'gw_user_';

/** Who is calling: an organization API key, or a principal-bound token. */
export interface Caller {
  kind: 'api_key' | 'user_token';
  organization: { id: string; name: string; display_name: string };
  /** Id of the key or token that authenticated; calls and usage are filtered by it. */
  credentialId: string;
  /** Keys have a role; tokens act with the least one. */
  role: Role | null;
  /** The principal a token is bound to; null for keys. */
  principal: string | null;
  expiresAt: number | null;
  /** The organization's approval policy, read with the credential so a run needs no other lookup. */
  approvalPolicy: ApprovalPolicy;
}

const roleRank: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

export function hasRole(caller: Caller, needed: Role): boolean {
  return caller.role !== null && roleRank[caller.role] >= roleRank[needed];
}

function checkOrganization(organization: { status: string; trusted_origins: string[] }, origin: string | undefined): void {
  if (organization.status !== 'active') {
    throw new GatewayError('no_active_organization', 'the organization of this credential is suspended');
  }
  if (origin !== undefined && !organization.trusted_origins.includes(origin)) {
    throw new GatewayError('untrusted_origin', `origin ${origin} is not trusted by this organization`);
  }
}

/** Resolves a bearer secret to its caller, or throws invalid_token / no_active_organization / untrusted_origin. */
export async function authenticate(gateway: Pick<Gateway, 'db'>, bearer: string, origin: string | undefined, now = Date.now()): Promise<Caller> {
  const hash = hashSecret(bearer);
  if (bearer.startsWith(API_KEY_PREFIX)) {
    const key = await findActiveKeyByHash(gateway.db, hash);
    if (key && safeEqual(key.key_hash, hash)) {
      checkOrganization(key.organization, origin);
      return {
        kind: 'api_key',
        organization: { id: key.organization.id, name: key.organization.name, display_name: key.organization.display_name },
        credentialId: key.id,
        role: key.role,
        principal: null,
        expiresAt: null,
        approvalPolicy: decodeApprovalPolicy(key.organization.approval_policy),
      };
    }
  } else if (bearer.startsWith(USER_TOKEN_PREFIX)) {
    const token = await findLiveTokenByHash(gateway.db, hash, now);
    if (token && safeEqual(token.token_hash, hash)) {
      checkOrganization(token.organization, origin);
      return {
        kind: 'user_token',
        organization: { id: token.organization.id, name: token.organization.name, display_name: token.organization.display_name },
        credentialId: token.id,
        role: null,
        principal: token.principal,
        expiresAt: token.expires_at,
        approvalPolicy: decodeApprovalPolicy(token.organization.approval_policy),
      };
    }
  }
  throw new GatewayError('invalid_token', 'the bearer token is unknown, revoked or expired');
}

/** GET /v1/me. */
export function describeCaller(caller: Caller) {
  return {
    organization: caller.organization,
    kind: caller.kind,
    ...(caller.kind === 'api_key'
      ? { key: { id: caller.credentialId, role: caller.role }, principal: 'organization' }
      : {
          token: { id: caller.credentialId, expires_at: isoTime(caller.expiresAt!) },
          principal: caller.principal,
        }),
  };
}
