import { GatewayError } from './errors.js';
import type { Caller } from './callers.js';

/** A principal: `organization` or `user:<id>`, id of 1-128 letters, digits and `._:@+-`. */
export const PRINCIPAL_PATTERN = /^(organization|user:[A-Za-z0-9._:@+-]{1,128})$/;

/** What a value refused by PRINCIPAL_PATTERN must be, as every refusal (API or CLI) says it. */
export const PRINCIPAL_FORMAT = 'must be "organization" or "user:<id>" (1-128 of A-Z a-z 0-9 . _ : @ + -)';

export const ORGANIZATION = 'organization';

export function isUserPrincipal(principal: string): boolean {
  return principal.startsWith('user:');
}

/**
 * Who a request acts as. An organization key acts as the organization unless it names a principal;
 * a principal-bound token acts only as its own principal.
 */
export function actingPrincipal(caller: Caller, requested?: string): string {
  if (caller.kind === 'user_token') {
    if (requested !== undefined && requested !== caller.principal) {
      throw new GatewayError('principal_forbidden', `this token acts only as ${caller.principal}`);
    }
    return caller.principal!;
  }
  return requested ?? ORGANIZATION;
}

/** The principal a list is filtered to: a token sees only its own; a key sees what it asks for, or everything. */
export function listPrincipal(caller: Caller, requested?: string): string | undefined {
  return caller.kind === 'user_token' ? actingPrincipal(caller, requested) : requested;
}
