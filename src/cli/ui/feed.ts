import type { Outcome, TailCall } from './types.js';

/** Where a tail reads calls from; the command binds it to the database, tests to plain arrays. */
export interface CallSource<C extends TailCall> {
  /** The newest calls, newest first. */
  recent(): Promise<C[]>;
  /** Every call with an id above `afterId` (all calls when undefined), oldest first. */
  since(afterId: string | undefined): Promise<C[]>;
  /** The current state of these calls. */
  current(ids: string[]): Promise<C[]>;
}

export interface FeedOptions {
  /**
   * Show only calls that end with this outcome; `pending` shows calls seen in flight. The source
   * reads every outcome so a call filtered on how it ends is followed until it ends.
   */
  outcome?: Outcome;
  /**
   * How long after getting its id a call may become visible (commit time, clock skew between
   * servers): ids are re-read for this long so a late commit is not skipped.
   */
  lagMs?: number;
  /** Internal safety cap on followed in-flight calls; beyond it the oldest is printed as it stands. */
  maxLive?: number;
  /** How many of the latest calls to print at start, as tail(1) does. */
  backlog?: number;
  now?: () => number;
}

export interface FeedUpdate<C extends TailCall> {
  /** Calls that finished (or matched) since the last update, oldest first: printed once. */
  settled: C[];
  /** In-flight calls the view shows live, oldest first. */
  live: C[];
}

const byId = (a: TailCall, b: TailCall) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Turns polls of a CallSource into "print these" and "show these live". Memory stays bounded:
 * ids are remembered only for the lag window and in-flight calls only up to `maxLive`.
 */
export class CallFeed<C extends TailCall> {
  private started = false;
  /** Calls above this id may still be unseen; everything at or below it has been handled. */
  private floor: string | undefined;
  private readonly seen = new Set<string>();
  private readonly observed: Array<{ id: string; at: number }> = [];
  private readonly live = new Map<string, C>();
  private readonly lagMs: number;
  private readonly maxLive: number;
  private readonly backlog: number;
  private readonly now: () => number;

  constructor(
    private readonly source: CallSource<C>,
    private readonly options: FeedOptions = {},
  ) {
    this.lagMs = options.lagMs ?? 1000;
    this.maxLive = options.maxLive ?? 200;
    this.backlog = options.backlog ?? 10;
    this.now = options.now ?? Date.now;
  }

  async next(): Promise<FeedUpdate<C>> {
    const now = this.now();
    const fresh = this.started
      ? (await this.source.since(this.floor)).filter((call) => this.remember(call, now))
      : await this.start(now);
    const following = [...this.live.keys()];
    const refreshed = following.length > 0 ? await this.source.current(following) : [];

    const settled: C[] = [];
    const stillThere = new Set(refreshed.map((call) => call.id));
    for (const id of following) if (!stillThere.has(id)) this.live.delete(id);
    for (const call of [...refreshed, ...fresh]) this.place(call, settled);
    this.capLive(settled);
    this.advanceFloor(now);
    return { settled: settled.sort(byId), live: this.options.outcome ? [] : [...this.live.values()].sort(byId) };
  }

  /** The first poll: the latest calls become the backlog, and reading resumes from the oldest of them. */
  private async start(now: number): Promise<C[]> {
    this.started = true;
    const recent = await this.source.recent();
    for (const call of recent) this.remember(call, now);
    this.floor = recent.at(-1)?.id;
    return recent.slice(0, this.backlog).reverse();
  }

  /** False when the call was seen before (ids are re-read over the lag window). */
  private remember(call: C, now: number): boolean {
    if (this.seen.has(call.id)) return false;
    this.seen.add(call.id);
    this.observed.push({ id: call.id, at: now });
    return true;
  }

  private place(call: C, settled: C[]): void {
    const wanted = this.options.outcome;
    if (call.outcome === 'pending') {
      // Filtered to another outcome, in-flight calls are still followed (unseen) to learn how they end.
      if (wanted === 'pending') settled.push(call);
      else this.live.set(call.id, call);
      return;
    }
    this.live.delete(call.id);
    if (wanted === undefined || call.outcome === wanted) settled.push(call);
  }

  private capLive(settled: C[]): void {
    for (const [id, call] of this.live) {
      if (this.live.size <= this.maxLive) break;
      this.live.delete(id);
      if (this.options.outcome === undefined) settled.push(call);
    }
  }

  /** Ids seen at least `lagMs` ago are final: reading resumes after the newest of them. */
  private advanceFloor(now: number): void {
    let moved = false;
    while (this.observed.length > 0 && this.observed[0].at <= now - this.lagMs) {
      const { id } = this.observed.shift()!;
      if (this.floor === undefined || id > this.floor) {
        this.floor = id;
        moved = true;
      }
    }
    if (!moved) return;
    for (const id of this.seen) if (id <= this.floor!) this.seen.delete(id);
  }
}
