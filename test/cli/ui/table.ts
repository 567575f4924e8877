import type { CallSource } from '../../../src/cli/ui/feed.js';
import type { Outcome, TailCall } from '../../../src/cli/ui/types.js';

/** A call as the public record shows it; `at` is a local time so the TIME column reads the same in every time zone. */
export function makeCall(n: number, outcome: Outcome, extra: Partial<TailCall> = {}): TailCall {
  return {
    id: `call_${String(n).padStart(6, '0')}`,
    task: 'acme.weather.current',
    principal: 'user:ada',
    identity: 'anonymous',
    outcome,
    http_status: { hit: 200, miss: 404, fault: 502, pending: null }[outcome],
    error_code: { hit: null, miss: 'miss', fault: 'upstream_error', pending: null }[outcome],
    charged_usd: outcome === 'hit' ? 0.002 : 0,
    latency_ms: outcome === 'pending' ? null : 12,
    created_at: new Date(2026, 10, 22, 10, 0, 1, n % 1000).toISOString(),
    approval_id: null,
    ...extra,
  };
}

/**
 * An in-memory calls table behind the CallSource contract: `insert` and `settle` change it the way
 * the run path changes the database; `reads` counts what the feed asked for.
 */
export class CallTable implements CallSource<TailCall> {
  readonly rows = new Map<string, TailCall>();
  reads = { recent: 0, since: 0, current: 0, rowsReturned: 0 };

  insert(...calls: TailCall[]): void {
    for (const call of calls) this.rows.set(call.id, call);
  }

  settle(id: string, outcome: Outcome): void {
    const call = this.rows.get(id)!;
    const { http_status, error_code } = makeCall(0, outcome);
    this.rows.set(id, { ...call, outcome, http_status, error_code, latency_ms: 25, charged_usd: outcome === 'hit' ? 0.002 : 0 });
  }

  private sorted(): TailCall[] {
    return [...this.rows.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  private count(calls: TailCall[]): TailCall[] {
    this.reads.rowsReturned += calls.length;
    return calls;
  }

  async recent() {
    this.reads.recent++;
    return this.count(this.sorted().reverse().slice(0, 50));
  }

  async since(afterId: string | undefined) {
    this.reads.since++;
    return this.count(this.sorted().filter((call) => afterId === undefined || call.id > afterId));
  }

  async current(ids: string[]) {
    this.reads.current++;
    return this.count(ids.flatMap((id) => (this.rows.has(id) ? [this.rows.get(id)!] : [])));
  }
}
