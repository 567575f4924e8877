import type { Server } from '@hapi/hapi';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long the server must have answered everything before memory left by heavy work is collected. */
const IDLE_MS = 5000;
/** Growth of resident memory since the last collection that counts as heavy work. */
const GROWTH_BYTES = 32 * 1024 * 1024;
/** When the second collection follows the first. */
const SECOND_MS = 1000;

/** V8's full collection without starting node with --expose-gc: the flag holds for contexts made after it is set. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * V8 collects garbage only as it allocates, so after a burst of large requests the heap and the buffers the burst
 * left stay resident until the next one. Once no request has been in flight for IDLE_MS after resident memory grew
 * by GROWTH_BYTES, a full collection frees the heap, and a second one, SECOND_MS later and only if still idle, the
 * buffers' memory (released only once the first has swept their owners). They run only then, so they stall no
 * request; one arriving meanwhile waits for a collection, tens of milliseconds.
 */
export function collectWhenIdle(server: Server): void {
  const collect = fullCollection();
  let inFlight = 0;
  let settledRss = process.memoryUsage.rss();
  const idle = setTimeout(() => {
    if (inFlight > 0) return idle.refresh();
    if (process.memoryUsage.rss() - settledRss < GROWTH_BYTES) return;
    collect();
    setTimeout(() => {
      if (inFlight === 0) collect();
      settledRss = process.memoryUsage.rss();
    }, SECOND_MS).unref();
  }, IDLE_MS).unref();
  server.ext('onRequest', (_request, h) => {
    inFlight++;
    return h.continue;
  });
  server.events.on('response', () => {
    inFlight--;
    idle.refresh();
  });
}
