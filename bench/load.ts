import autocannon from 'autocannon';

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** One body, or several sent in turn (each connection cycles through them). */
  bodies?: string[];
}

export interface LatencyResult {
  requests: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ThroughputResult {
  requests: number;
  failed: number;
  perSecond: number;
}

function options(target: Target, connections: number, seconds: number): autocannon.Options {
  const base = { url: target.url, connections, duration: seconds, pipelining: 1 };
  const method = target.method ?? 'GET';
  const headers = { ...(target.bodies ? { 'content-type': 'application/json' } : {}), ...target.headers };
  if (!target.bodies || target.bodies.length === 1) return { ...base, method, headers, body: target.bodies?.[0] };
  return { ...base, requests: target.bodies.map((body) => ({ method, headers, body })) };
}

function run(opts: autocannon.Options, onResponse?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => status < 300 && onResponse(ms));
  });
}

const failures = (result: autocannon.Result) => result.non2xx + result.errors + result.timeouts;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Latency at `connections` concurrent connections (at one, one request at a time, so nothing queues).
 * autocannon's own histogram keeps whole milliseconds; each response time is collected here at full resolution instead.
 */
export async function latencyAt(target: Target, connections: number, seconds: number): Promise<LatencyResult> {
  const times: number[] = [];
  const result = await run(options(target, connections, seconds), (ms) => times.push(ms));
  times.sort((a, b) => a - b);
  return { requests: times.length, failed: failures(result), p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}

export const latencyAtOne = (target: Target, seconds: number) => latencyAt(target, 1, seconds);

/** Requests a second at `connections` concurrent keep-alive connections. */
export async function throughput(target: Target, connections: number, seconds: number): Promise<ThroughputResult> {
  const result = await run(options(target, connections, seconds));
  const ok = result.requests.total - result.non2xx;
  return { requests: ok, failed: failures(result), perSecond: ok / seconds };
}
