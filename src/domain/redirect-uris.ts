import { findOrganizationById, updateOrganization } from '../db/repos/organizations.js';
import { GatewayError, invalidInput, type InvalidParam } from './errors.js';
import type { Gateway } from './gateway.js';

/** The allowlist's bounds: entries per organization and characters per entry. */
export const REDIRECT_ALLOWLIST_LIMITS = { entries: 100, length: 2000 } as const;

/** Hosts where plain http is accepted (local development callbacks). */
const PLAIN_HTTP_HOSTS = new Set(['localhost', '127.0.0.1']);

export interface RedirectAllowlist {
  redirect_uris: string[];
}

/**
 * Why an allowlist entry is refused, or null when it is acceptable. The allowlist rules (https, or http on
 * localhost and 127.0.0.1; no query, no fragment), plus no
 * credentials and no whitespace (which URL parsing would silently drop).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > REDIRECT_ALLOWLIST_LIMITS.length) return `must be at most ${REDIRECT_ALLOWLIST_LIMITS.length} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(uri)) return 'must not contain whitespace or control characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL such as https://app.example.com/callback';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  if (url.protocol === 'http:' && !PLAIN_HTTP_HOSTS.has(url.hostname)) {
    return 'must use https (plain http is accepted only for localhost and 127.0.0.1)';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (uri.includes('?')) return 'must not have a query';
  if (uri.includes('#')) return 'must not have a fragment';
  return null;
}

/** Scheme, host, non-default port and path: the parts matching compares, in URL's canonical spelling. */
function matchKey(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** An acceptable entry in canonical form (lower-case scheme and host, default port dropped, path at least "/"). */
export function normaliseRedirectUri(uri: string): string {
  return matchKey(new URL(uri));
}

/** Checks every entry and names each bad one; the canonical, de-duplicated list when all pass. */
export function validateAllowlist(uris: string[], paramName = 'redirect_uris'): string[] {
  const bad: InvalidParam[] = [];
  uris.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) bad.push({ name: `${paramName}.${index}`, reason: `${JSON.stringify(uri)} ${problem}` });
  });
  if (bad.length) throw invalidInput(bad.map((entry) => entry.reason).join('; '), bad);
  const list = [...new Set(uris.map(normaliseRedirectUri))];
  if (list.length > REDIRECT_ALLOWLIST_LIMITS.entries) {
    throw invalidInput(`the allowlist holds at most ${REDIRECT_ALLOWLIST_LIMITS.entries} redirect URIs`, [
      { name: paramName, reason: `must hold at most ${REDIRECT_ALLOWLIST_LIMITS.entries} entries` },
    ]);
  }
  return list;
}

async function allowlistOf(gateway: Pick<Gateway, 'db'>, organizationId: string): Promise<string[]> {
  const org = await findOrganizationById(gateway.db, organizationId);
  if (!org) throw new GatewayError('no_active_organization', 'the organization does not exist');
  return org.redirect_uris;
}

export async function getRedirectAllowlist(gateway: Pick<Gateway, 'db'>, organizationId: string): Promise<RedirectAllowlist> {
  return { redirect_uris: await allowlistOf(gateway, organizationId) };
}

/** Replaces the whole list in one statement; one bad entry rejects all of it. */
export async function setRedirectAllowlist(gateway: Pick<Gateway, 'db'>, organizationId: string, uris: string[]): Promise<RedirectAllowlist> {
  const redirect_uris = validateAllowlist(uris);
  await updateOrganization(gateway.db, organizationId, { redirect_uris });
  return { redirect_uris };
}

export async function addRedirectUri(gateway: Pick<Gateway, 'db'>, organizationId: string, uri: string): Promise<RedirectAllowlist> {
  return setRedirectAllowlist(gateway, organizationId, [...(await allowlistOf(gateway, organizationId)), uri]);
}

export async function removeRedirectUri(gateway: Pick<Gateway, 'db'>, organizationId: string, uri: string): Promise<RedirectAllowlist> {
  const [entry] = validateAllowlist([uri], 'redirect_uri');
  const current = await allowlistOf(gateway, organizationId);
  if (!current.includes(entry)) throw invalidInput(`${entry} is not on the redirect allowlist`);
  return setRedirectAllowlist(gateway, organizationId, current.filter((existing) => existing !== entry));
}

/**
 * Whether a callback may receive the consent redirect: exact match on scheme, host, port (default
 * ports normalised) and path. The callback's own query is not compared (the service adds
 * session_id and status to it); one carrying credentials or a fragment never matches.
 */
export function matchesAllowlist(allowlist: readonly string[], uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash || uri.includes('#')) return false;
  return allowlist.includes(matchKey(url));
}

export async function isAllowedRedirect(gateway: Pick<Gateway, 'db'>, organizationId: string, uri: string): Promise<boolean> {
  return matchesAllowlist(await allowlistOf(gateway, organizationId), uri);
}

/** For POST /v1/connect/sessions: 400 invalid_input naming redirect_uri when it is not allowlisted. */
export async function checkRedirectUri(gateway: Pick<Gateway, 'db'>, organizationId: string, uri: string): Promise<void> {
  if (!(await isAllowedRedirect(gateway, organizationId, uri))) {
    throw invalidInput(`redirect_uri ${uri} is not on this organization's redirect allowlist (PUT /v1/connect/redirect-uris)`, [
      { name: 'redirect_uri', reason: 'must match an allowlisted URI on scheme, host, port and path' },
    ]);
  }
}
