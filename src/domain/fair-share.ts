import type { Config } from '../config/schema.js';

/**
 * A fair share of a process between organizations, by what their requests cost.
 *
 * Each request is bounded (body, values, answer, page), but an organization may still send costly requests back
 * to back. What a request costs the event loop grows with the bytes it reads and answers (parsing, copying,
 * validating, sending, and the garbage collection they cause), so the bytes of a request beyond `cheap_bytes`
 * are added to its organization's debt, which halves every `debt_half_life_ms`. While requests of another
 * organization are running, a request of an organization whose debt is over `max_debt_bytes` waits, in order,
 * until the debt has decayed under it and the organization's previous request has ended (or `max_wait_ms` has
 * passed); other organizations' requests go on at once. Cheap requests never add debt, so an organization that
 * sends only them never waits. At most `max_waiting` requests of an organization wait; one more is refused.
 */
export type FairShareSettings = Config['fair_share'];

/** A request let in (at once or after waiting); `finish` must be called once it ends, however it ends. */
export interface Turn {
  /** Settles when the request may go on; undefined when it need not wait. */
  readonly admitted: Promise<void> | undefined;
  /** The request ended, having read and answered `bytes` (a request that ends still waiting leaves the queue). */
  finish(bytes: number): void;
}

/** The organization already has `max_waiting` requests waiting: this one is refused, to be retried later. */
export interface Refusal {
  readonly retryAfterMs: number;
}

interface Waiter {
  since: number;
  start(): void;
}

interface Account {
  debt: number;
  /** When `debt` was last brought up to date. */
  at: number;
  running: number;
  waiting: Waiter[];
  timer?: ReturnType<typeof setTimeout>;
}

export class FairShare {
  private readonly accounts = new Map<string, Account>();
  private running = 0;

  constructor(
    private readonly settings: FairShareSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A request of `organization` that declares `declaredBytes` of body (charged as it starts, the rest as it ends). */
  enter(organization: string, declaredBytes: number): Turn | Refusal {
    const account = this.account(organization);
    const precharge = this.costOf(declaredBytes);
    let state: 'waiting' | 'running' | 'ended' = 'waiting';
    let resolve = () => {};
    const waiter: Waiter = {
      since: this.now(),
      start: () => {
        state = 'running';
        this.running++;
        account.running++;
        this.charge(account, precharge);
        resolve();
      },
    };
    const finish = (bytes: number) => {
      if (state === 'running') {
        this.running--;
        account.running--;
        this.charge(account, Math.max(0, this.costOf(bytes) - precharge));
      } else if (state === 'waiting') {
        // Abandoned while waiting: it leaves the queue, and its lifecycle goes on only to see it was answered.
        account.waiting.splice(account.waiting.indexOf(waiter), 1);
        resolve();
      }
      state = 'ended';
      this.pumpAll();
      this.forgetIfIdle(organization, account);
    };
    if (!account.waiting.length && !this.mustWait(account, false)) {
      waiter.start();
      return { admitted: undefined, finish };
    }
    if (account.waiting.length >= this.settings.max_waiting) {
      this.forgetIfIdle(organization, account);
      return { retryAfterMs: Math.max(this.untilOutOfDebt(account), 1000) };
    }
    const admitted = new Promise<void>((settle) => (resolve = settle));
    account.waiting.push(waiter);
    this.pump(account);
    return { admitted, finish };
  }

  /** What the organization owes now, in bytes (for tests and metrics). */
  debtOf(organization: string): number {
    const account = this.accounts.get(organization);
    return account ? this.debt(account) : 0;
  }

  private costOf(bytes: number): number {
    return Math.max(0, bytes - this.settings.cheap_bytes);
  }

  private account(organization: string): Account {
    let account = this.accounts.get(organization);
    if (!account) {
      account = { debt: 0, at: this.now(), running: 0, waiting: [] };
      this.accounts.set(organization, account);
    }
    return account;
  }

  private debt(account: Account): number {
    const now = this.now();
    account.debt *= 2 ** (-(now - account.at) / this.settings.debt_half_life_ms);
    account.at = now;
    return account.debt;
  }

  private charge(account: Account, bytes: number): void {
    if (bytes > 0) account.debt = this.debt(account) + bytes;
  }

  private untilOutOfDebt(account: Account): number {
    const debt = this.debt(account);
    return debt <= this.settings.max_debt_bytes ? 0 : this.settings.debt_half_life_ms * Math.log2(debt / this.settings.max_debt_bytes);
  }

  /**
   * Whether a request of the organization must wait now: only while another organization's requests run, and
   * then while the organization is in debt or (for a queued request) its previous one still runs.
   */
  private mustWait(account: Account, queued: boolean): boolean {
    if (this.running === account.running) return false;
    return this.debt(account) > this.settings.max_debt_bytes || (queued && account.running > 0);
  }

  /** Starts the organization's waiting requests that may start, and sets a timer for the next one. */
  private pump(account: Account): void {
    clearTimeout(account.timer);
    account.timer = undefined;
    while (account.waiting.length) {
      const head = account.waiting[0];
      if (this.now() - head.since < this.settings.max_wait_ms && this.mustWait(account, true)) break;
      account.waiting.shift();
      head.start();
    }
    if (!account.waiting.length) return;
    // Its own running request pumps again as it ends; otherwise the debt's decay or the longest wait does.
    const overdue = account.waiting[0].since + this.settings.max_wait_ms - this.now();
    const delay = account.running > 0 ? overdue : Math.min(overdue, this.untilOutOfDebt(account));
    account.timer = setTimeout(() => this.pump(account), Math.max(1, Math.ceil(delay)));
    account.timer.unref?.();
  }

  private pumpAll(): void {
    for (const account of this.accounts.values()) if (account.waiting.length) this.pump(account);
  }

  /** An organization with nothing running, nothing waiting and no debt to speak of is not kept. */
  private forgetIfIdle(organization: string, account: Account): void {
    if (!account.running && !account.waiting.length && this.debt(account) < 1) this.accounts.delete(organization);
  }
}
