import type { Caller } from '../callers.js';
import type { Gateway } from '../gateway.js';
import { actingPrincipal } from '../principals.js';
import { indexFor, rank } from './engine.js';
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
 * POST /v1/discover: the catalog's tasks for a job, best first, or the near misses when none qualifies.
 * `ready` is given when the request names a principal: the header, or a principal-bound token's own.
 */
export async function discover(gateway: Gateway, caller: Caller, request: DiscoverRequest): Promise<Discovery> {
  const named = caller.kind === 'user_token' || request.principal !== undefined;
  const principal = actingPrincipal(caller, request.principal);
  const { candidates, nearMisses } = rank(indexFor(gateway.catalog), request.task, request.limit);
  const ready = named ? await readiness(gateway, caller.organization.id, principal, candidates.map((ranked) => ranked.task)) : undefined;
  return {
    candidates: candidates.map((ranked) => presentCandidate(ranked, ready?.get(ranked.task.id))),
    near_misses: nearMisses.map(presentNearMiss),
  };
}
