/**
 * Work run one at a time per key in this process, in the order asked; other keys are not held up. After each
 * piece of work the key rests `restFactor` times as long as the work took before its next piece starts, so
 * one key's work, however fast it is asked for, holds at most 1 / (1 + restFactor) of the process's time.
 * The tail of each key's queue is kept only while work is queued or resting under it.
 */
export function oneAtATime<K>(restFactor = 0): <T>(key: K, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<K, Promise<unknown>>();
  const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return (key, work) => {
    let started = 0;
    const turn = (tails.get(key) ?? Promise.resolve()).then(() => {
      started = performance.now();
      return work();
    });
    const tail = turn.catch(() => undefined).then(() => (restFactor ? rest((performance.now() - started) * restFactor) : undefined));
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return turn;
  };
}
