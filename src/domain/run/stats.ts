import { recentObservations } from '../../db/repos/calls.js';
import type { Gateway } from '../gateway.js';

/** How a route has behaved lately; null where it has no settled calls to judge by. */
export interface RouteStats {
  medianLatencyMs: number | null;
  hitRate: number | null;
}

/** Observed over the last hour, at most this many calls per task; cached briefly so sorting costs no query per run. */
const WINDOW_MS = 60 * 60 * 1000;
const SAMPLE = 200;
const CACHE_MS = 5_000;

const caches = new WeakMap<Pick<Gateway, 'db'>, Map<string, { at: number; stats: RouteStats }>>();

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export async function routeStats(gateway: Pick<Gateway, 'db'>, taskId: string, now = Date.now()): Promise<RouteStats> {
  let cache = caches.get(gateway);
  if (!cache) caches.set(gateway, (cache = new Map()));
  const cached = cache.get(taskId);
  if (cached && now - cached.at < CACHE_MS) return cached.stats;
  const rows = await recentObservations(gateway.db, taskId, now - WINDOW_MS, SAMPLE);
  const hits = rows.filter((row) => row.outcome === 'hit');
  const stats: RouteStats = {
    medianLatencyMs: median(hits.map((row) => Number(row.latency_ms ?? 0))),
    hitRate: rows.length ? hits.length / rows.length : null,
  };
  cache.set(taskId, { at: now, stats });
  return stats;
}
