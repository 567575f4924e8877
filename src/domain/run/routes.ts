import { taskInputProblems } from '../catalog/input.js';
import type { Provider, Task } from '../catalog/types.js';
import type { Gateway } from '../gateway.js';
import { slugList, usdToMicros, type RunRequest } from './request.js';
import { routeStats } from './stats.js';

/** One way to do the job: a task of the capability, its provider, and the input as that task sees it. */
export interface Route {
  task: Task;
  /** Undefined for in-process utility tasks. */
  provider: Provider | undefined;
  input: Record<string, unknown>;
}

/** Whether the routing headers leave a task: `svc-only`, `svc-max-cost`, `svc-zero-retention: true`. */
function leftByHeaders(gateway: Pick<Gateway, 'catalog'>, task: Task, request: RunRequest): boolean {
  const only = slugList(request.only);
  if (only && !only.includes(task.provider)) return false;
  if (request.maxCost !== undefined && task.price_micros > usdToMicros(request.maxCost)) return false;
  if (request.zeroRetention && task.kind !== 'utility' && gateway.catalog.providers.get(task.provider)?.zero_retention !== true) return false;
  return true;
}

/**
 * The other tasks that may do the requested task's job, as the routing headers leave them, each with its own
 * copy of the input (taken before the requested task's defaults are filled in, so each route fills its
 * own): the active tasks of the same capability and kind, in catalog order. Account tasks have none: another
 * provider would be another account. No input is checked here; only these routes' inputs will be.
 */
export function alternativeRoutes(gateway: Pick<Gateway, 'catalog'>, task: Task, input: Record<string, unknown>, request: RunRequest): Route[] {
  if (task.kind === 'account') return [];
  const routes: Route[] = [];
  for (const other of gateway.catalog.tasksForCapability(task.capability)) {
    if (other === task || other.status !== 'active' || other.kind !== task.kind || !leftByHeaders(gateway, other, request)) continue;
    routes.push({ task: other, provider: gateway.catalog.providers.get(other.provider), input: structuredClone(input) });
  }
  return routes;
}

async function sortKey(gateway: Pick<Gateway, 'db'>, route: Route, sort: NonNullable<RunRequest['sort']>): Promise<number> {
  if (sort === 'cost') return route.task.price_micros;
  const stats = await routeStats(gateway, route.task.id);
  // Routes never observed go after those with a record.
  if (sort === 'latency') return stats.medianLatencyMs ?? Number.POSITIVE_INFINITY;
  return stats.hitRate === null ? Number.POSITIVE_INFINITY : -stats.hitRate;
}

/**
 * The routes to try, in order (docs/run.md, the OpenRouter convention): the requested task (its input already
 * checked), when the routing headers leave it, then the alternatives whose schema accepts their copy of the
 * input (with their own defaults); `svc-sort` orders by price, observed median latency or observed hit rate
 * (stable, so ties keep the default order), and `svc-order` puts the named providers first in its order.
 */
export async function chooseRoutes(gateway: Pick<Gateway, 'db' | 'catalog'>, requested: Route, alternatives: Route[], request: RunRequest): Promise<Route[]> {
  let routes = leftByHeaders(gateway, requested.task, request) ? [requested] : [];
  for (const route of alternatives) if (!taskInputProblems(route.task, route.input).length) routes.push(route);
  if (request.sort) {
    const keys = new Map<Route, number>();
    for (const route of routes) keys.set(route, await sortKey(gateway, route, request.sort));
    routes = [...routes].sort((a, b) => (keys.get(a) === keys.get(b) ? 0 : keys.get(a)! - keys.get(b)!));
  }
  const order = slugList(request.order);
  if (order) {
    const rank = (route: Route) => (order.includes(route.task.provider) ? order.indexOf(route.task.provider) : order.length);
    routes = [...routes].sort((a, b) => rank(a) - rank(b));
  }
  return routes;
}
