import type { Server } from '@hapi/hapi';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleCollectionSettings {
  /** How long the server must have answered everything before memory left by heavy work is collected. */
  idleMs: number;
  /** Growth of resident memory since the last collection that counts as heavy work. */
  growthBytes: number;
  /** When the second collection follows the first. */
  secondMs: number;
  /** A full collection of V8's heap. */
  collect: () => void;
  /** The process's resident memory in bytes. */
  residentBytes: () => number;
}

/** V8's full collection without starting node with --expose-gc: the flag holds for contexts made after it is set. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * How far V8 lets its old generation grow past what survived the last full collection before it collects again,
 * in percent. V8 picks up to 300 on its own (four times the live heap), so with some 50 MB live, 100 MB and more of
 * garbage from large requests (parsed bodies and answers, their text) stays resident between collections; at 50
 * it collects sooner, in its concurrent marking, for a bounded footprint.
 */
export const HEAP_GROWTH_PERCENT = 50;

/** Sets V8's heap growth (HEAP_GROWTH_PERCENT) for the process: a flag V8 reads at each collection. */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
}

const defaults = (): IdleCollectionSettings => ({
  idleMs: 5000,
  growthBytes: 32 * 1024 * 1024,
  secondMs: 1000,
  collect: fullCollection(),
  residentBytes: () => process.memoryUsage.rss(),
});

/**
 * V8 collects garbage only as it allocates, so after a burst of large requests the heap and the buffers the burst
 * left stay resident until the next one. Once no request has been in flight for `idleMs` after resident memory grew
 * by `growthBytes`, a full collection frees the heap, and a second one, `secondMs` later and only if still idle, the
 * buffers' memory (released only once the first has swept their owners). They run only then, so they stall no
 * request; one arriving meanwhile waits for a collection, tens of milliseconds.
 */
export function collectWhenIdle(server: Server, settings: Partial<IdleCollectionSettings> = {}): void {
  const { idleMs, growthBytes, secondMs, collect, residentBytes } = { ...defaults(), ...settings };
  let inFlight = 0;
  let settledRss = residentBytes();
  const idle = setTimeout(() => {
    if (inFlight > 0) return idle.refresh();
    if (residentBytes() - settledRss < growthBytes) return;
    collect();
    setTimeout(() => {
      if (inFlight === 0) collect();
      settledRss = residentBytes();
    }, secondMs).unref();
  }, idleMs).unref();
  server.ext('onRequest', (_request, h) => {
    inFlight++;
    return h.continue;
  });
  server.events.on('response', () => {
    inFlight--;
    idle.refresh();
  });
}
