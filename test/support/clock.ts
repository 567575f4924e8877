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
