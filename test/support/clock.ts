/**
 * Runs `fn` as if `ms` milliseconds had passed: Date.now() answers that much later until it settles.
 * The gateway under test runs in this process and reads the time from Date.now() wherever no clock is
 * passed in (every HTTP route), so tokens, links and idempotency keys expire through the API the way
 * time expires them, without a row being written for the test. Only Date.now moves: timers, `new Date()`
 * and performance.now() keep real time. Keep `fn` to requests made and awaited inside it.
 */
export async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const outer = Date.now;
  Date.now = () => outer() + ms;
  try {
    return await fn();
  } finally {
    Date.now = outer;
  }
}

/**
 * Registers hooks that start the suite one second into a clock minute, as Date.now() sees it, and
 * give it real time back afterwards: per-minute counters (rate limits) then have 59 s before their
 * window turns over, so a suite counting up to a limit never sees the count reset halfway, and never
 * waits for a new minute. Date.now only moves forward, by at most a minute; `later()` still works inside.
 */
export function fromStartOfMinute(): void {
  let real: (() => number) | undefined;
  before(() => {
    const outer = Date.now;
    const shift = 61_000 - (outer() % 60_000);
    real = outer;
    Date.now = () => outer() + shift;
  });
  after(() => {
    if (real) Date.now = real;
  });
}
