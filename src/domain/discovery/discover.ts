import type { Caller } from '../callers.js';
import type { Gateway } from '../gateway.js';
import { actingPrincipal } from '../principals.js';
import { indexFor, rank, type Ranked } from './engine.js';
import { presentCandidate, presentNearMiss, type Candidate, type NearMiss } from './present.js';
import { readiness } from './readiness.js';

export interface DiscoverRequest {
  /** The job in plain words. */
  task: string;
  limit: number;
  /** The svc-principal header, when sent. */
  principal?: string;
}

export interface Discovery {
  candidates: Candidate[];
  near_misses: NearMiss[];
}

/**
 * Scores at least this share of another's are similar: between such candidates, one `ready` for the
 * principal goes first, since it can run now and the other needs a connection first.
 */
export const SIMILAR_SCORE = 0.85;

/** Candidates in rank order, each ready one moved ahead of the not-ready ones it scores similarly to. */
export function readyFirst(candidates: Ranked[], ready: ReadonlyMap<string, boolean>): Ranked[] {
  const ordered: Ranked[] = [];
  for (const candidate of candidates) {
    let at = ordered.length;
    if (ready.get(candidate.task.id)) {
      while (at > 0 && !ready.get(ordered[at - 1].task.id) && candidate.score >= ordered[at - 1].score * SIMILAR_SCORE) at -= 1;
    }
    ordered.splice(at, 0, candidate);
  }
  return ordered;
}

/**
 * POST /v1/discover: the catalog's tasks for a job, best first, or the near misses when none qualifies.
 * `ready` is given when the request names a principal: the header, or a principal-bound token's own.
 * Given a principal, twice `limit` candidates are ranked, so a ready task just past the limit can still
 * go ahead of a similar one that is not ready.
 */
export async function discover(gateway: Pick<Gateway, 'catalog' | 'db'>, caller: Caller, request: DiscoverRequest): Promise<Discovery> {
  const named = caller.kind === 'user_token' || request.principal !== undefined;
  const principal = actingPrincipal(caller, request.principal);
  const { candidates, nearMisses } = rank(indexFor(gateway.catalog), request.task, named ? request.limit * 2 : request.limit);
  const ready = named ? await readiness(gateway, caller.organization.id, principal, candidates.map((ranked) => ranked.task)) : undefined;
  const ordered = ready ? readyFirst(candidates, ready).slice(0, request.limit) : candidates;
  return {
    candidates: ordered.map((ranked) => presentCandidate(ranked, ready?.get(ranked.task.id))),
    near_misses: nearMisses.map(presentNearMiss),
  };
}
