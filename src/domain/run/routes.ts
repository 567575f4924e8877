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

function zeroRetention(route: Route): boolean {
  return route.task.kind === 'utility' || route.provider?.zero_retention === true;
}

/** A route whose schema rejects the input cannot do this job; its defaults are filled on a copy. */
function alternative(gateway: Pick<Gateway, 'catalog'>, task: Task, input: Record<string, unknown>): Route | null {
  const own = structuredClone(input);
  return taskInputProblems(task, own).length ? null : { task, provider: gateway.catalog.providers.get(task.provider), input: own };
}

async function sortKey(gateway: Pick<Gateway, 'db'>, route: Route, sort: NonNullable<RunRequest['sort']>): Promise<number> {
  if (sort === 'cost') return route.task.price_micros;
  const stats = await routeStats(gateway, route.task.id);
  // Routes never observed go after those with a record.
  if (sort === 'latency') return stats.medianLatencyMs ?? Number.POSITIVE_INFINITY;
  return stats.hitRate === null ? Number.POSITIVE_INFINITY : -stats.hitRate;
}

/**
 * The routes to try, in order (docs/run.md, the OpenRouter convention): the requested task, then
 * the other active tasks of its capability that accept the input. Account tasks have only themselves:
 * another provider would be another account. `svc-only` keeps the named providers, `svc-max-cost` drops
 * routes priced above it, `svc-zero-retention: true` keeps zero-retention providers; `svc-sort` orders
 * by price, observed median latency or observed hit rate (stable, so ties keep the default order), and
 * `svc-order` puts the named providers first in its order.
 */
export async function chooseRoutes(
  gateway: Pick<Gateway, 'db' | 'catalog'>,
  task: Task,
  input: Record<string, unknown>,
  request: RunRequest,
): Promise<Route[]> {
  let routes: Route[] = [{ task, provider: gateway.catalog.providers.get(task.provider), input }];
  if (task.kind !== 'account') {
    for (const other of gateway.catalog.tasksForCapability(task.capability)) {
      if (other === task || other.status !== 'active' || other.kind !== task.kind) continue;
      const route = alternative(gateway, other, input);
      if (route) routes.push(route);
    }
  }
  const only = slugList(request.only);
  if (only) routes = routes.filter((route) => only.includes(route.task.provider));
  if (request.maxCost !== undefined) {
    const ceiling = usdToMicros(request.maxCost);
    routes = routes.filter((route) => route.task.price_micros <= ceiling);
  }
  if (request.zeroRetention) routes = routes.filter(zeroRetention);
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
