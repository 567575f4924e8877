import type { Request, Server } from '@hapi/hapi';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Gateway, GatewayObserver } from '../domain/gateway.js';
import { waitingDeliveries } from '../domain/webhooks/worker.js';
import { answeredStatus } from './answered.js';
import { metricsRoute } from './routes/system/metrics.js';

/** The route label of every request that matched no route: one value, never the path that was asked. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Fine steps from 0.1 ms to 100 ms: the gateway's own time per run is what operators compare gateways by. */
const OVERHEAD_BUCKETS_S = [0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.02, 0.05, 0.1];
const DURATION_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics extends GatewayObserver {
  registry: Registry;
  requestFinished(route: string, method: string, status: number, ms: number): void;
}

/**
 * Every metric the gateway exposes, in a registry of its own (several servers may share a process in
 * tests). Labels are bounded sets: route templates, methods, statuses, provider slugs and outcomes;
 * never an organization, key, token or principal.
 */
export function createMetrics(gateway: Gateway): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to answering it, by route template and method',
    labelNames: ['route', 'method'],
    buckets: DURATION_BUCKETS_S,
    registers,
  });
  const runs = new Counter({
    name: 'gateway_runs_total',
    help: 'Task runs recorded, by provider and outcome (hit, miss, fault)',
    labelNames: ['provider', 'outcome'],
    registers,
  });
  const upstreamSeconds = new Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time a run spent in upstream attempts (all of them, when one fell back to another route), by provider',
    labelNames: ['provider'],
    buckets: DURATION_BUCKETS_S,
    registers,
  });
  const overheadSeconds = new Histogram({
    name: 'gateway_run_overhead_seconds',
    help: "The gateway's own time per run: from the validated request to the settled call, minus upstream time",
    buckets: OVERHEAD_BUCKETS_S,
    registers,
  });
  const deliveries = new Counter({
    name: 'gateway_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'],
    registers,
  });
  new Gauge({
    name: 'gateway_webhook_deliveries_waiting',
    help: 'Webhook deliveries waiting for an attempt, read from the database at scrape time',
    registers,
    async collect() {
      this.set(await waitingDeliveries(gateway));
    },
  });

  return {
    registry,
    requestFinished(route, method, status, ms) {
      requests.labels(route, method, String(status)).inc();
      requestSeconds.labels(route, method).observe(ms / 1000);
    },
    runFinished({ provider, outcome, totalMs, upstreamMs }) {
      runs.labels(provider, outcome).inc();
      if (outcome !== 'miss') upstreamSeconds.labels(provider).observe(upstreamMs / 1000);
      overheadSeconds.observe(Math.max(0, totalMs - upstreamMs) / 1000);
    },
    deliveryAttempted(outcome) {
      deliveries.labels(outcome).inc();
    },
  };
}

function routeLabel(request: Request): string {
  // hapi answers unmatched requests from its special catch-all route.
  return (request.route.method as string) === '_special' ? UNMATCHED_ROUTE : request.route.path;
}

/**
 * With `metrics.token` set: GET /metrics, and the observer that feeds it from every request, run and
 * webhook attempt. Without it nothing is registered, so /metrics is an unknown route like any other.
 */
export function registerMetrics(server: Server, gateway: Gateway): void {
  const token = gateway.config.metrics.token;
  if (!token) return;
  const metrics = createMetrics(gateway);
  gateway.observer = metrics;
  server.events.on('response', (request) => {
    const status = answeredStatus(request);
    const answered = request.info.completed || request.info.responded || Date.now();
    metrics.requestFinished(routeLabel(request), request.method.toUpperCase(), status, answered - request.info.received);
  });
  server.route(metricsRoute(token, metrics.registry));
}
