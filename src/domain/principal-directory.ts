import type { Executor } from '../db/database.js';
import { pagePrincipals, upsertPrincipalSeen } from '../db/repos/principals.js';
import type { Gateway } from './gateway.js';
import { pageQuery, toPage } from './paging.js';
import { isoTime } from './time.js';

/**
 * Notes that the organization acted as (or for) a principal: GET /v1/principals lists every principal
 * with its first and last use. Cheap enough for the run path: one upsert statement. Given the transaction
 * when already inside one (on SQLite a second writer would wait for the first).
 */
export async function recordPrincipalUse(db: Executor, organizationId: string, principal: string, now: number): Promise<void> {
  await upsertPrincipalSeen(db, organizationId, principal, now);
}

/** How stale a principal's last_seen_at may be when the run path records it: an hour of runs costs one write. */
const ACTIVITY_RESOLUTION_MS = 60_000;
/** Internal safety cap on the remembered principals, not a product limit. */
const ACTIVITY_MEMORY = 10_000;
const lastRecorded = new Map<string, number>();

/**
 * Whether a hot path should record a principal's use now: the first use at once, later ones at most once a
 * minute per principal and process, so last_seen_at may lag by up to a minute.
 */
export function principalActivityDue(organizationId: string, principal: string, now: number): boolean {
  const last = lastRecorded.get(`${organizationId} ${principal}`);
  return last === undefined || now - last >= ACTIVITY_RESOLUTION_MS;
}

/** Notes that a principal's use was written at `now` (principalActivityDue counts from it). */
export function principalActivityRecorded(organizationId: string, principal: string, now: number): void {
  if (lastRecorded.size >= ACTIVITY_MEMORY) lastRecorded.clear();
  lastRecorded.set(`${organizationId} ${principal}`, now);
}

/** recordPrincipalUse for hot paths, when principalActivityDue. */
export async function recordPrincipalActivity(gateway: Pick<Gateway, 'db'>, organizationId: string, principal: string, now: number): Promise<void> {
  if (!principalActivityDue(organizationId, principal, now)) return;
  await recordPrincipalUse(gateway.db, organizationId, principal, now);
  principalActivityRecorded(organizationId, principal, now);
}

export interface PrincipalUse {
  principal: string;
  first_seen_at: string;
  last_seen_at: string;
  /** Connections of the principal that are not revoked. */
  connections: number;
}

export interface PrincipalList {
  principals: PrincipalUse[];
  next_cursor: string | null;
}

/**
 * GET /v1/principals: every principal the organization has used, in principal order. The cursor is
 * the house cursor (encodeCursor) wrapping the last principal shown, since principals have no
 * time-ordered id.
 */
export async function listPrincipals(gateway: Pick<Gateway, 'db'>, organizationId: string, filters: { q?: string; cursor?: string }): Promise<PrincipalList> {
  const rows = await pagePrincipals(gateway.db, organizationId, filters.q, pageQuery(filters.cursor));
  const page = toPage(rows, (row) => row.principal);
  return {
    principals: page.items.map((row) => ({
      principal: row.principal,
      first_seen_at: isoTime(row.first_seen_at),
      last_seen_at: isoTime(row.last_seen_at),
      connections: row.connections,
    })),
    next_cursor: page.next_cursor,
  };
}
