import { useEffect, useRef, useState } from 'react';
import { CallFeed, type CallSource, type FeedOptions } from './feed.js';
import type { TailCall } from './types.js';

export interface CallBatch<C extends TailCall> {
  /** Grows by one with every batch, so a view can print each batch exactly once. */
  serial: number;
  calls: C[];
}

export interface CallStream<C extends TailCall> {
  /** The calls that finished at the latest poll that had any. */
  batch: CallBatch<C>;
  live: C[];
  /** Calls printed so far. */
  printed: number;
  error?: Error;
}

export interface StreamOptions extends FeedOptions {
  intervalMs?: number;
}

/**
 * Polls `source` every `intervalMs` (one poll at a time, never overlapping) and keeps only the latest
 * batch and the in-flight calls in state, so memory stays flat however long the tail runs. A failed
 * poll stops the stream and is reported as `error`. The timer is cleared on unmount.
 */
export function useCallStream<C extends TailCall>(source: CallSource<C>, options: StreamOptions = {}): CallStream<C> {
  const feed = useRef<CallFeed<C> | null>(null);
  feed.current ??= new CallFeed(source, options);
  const intervalMs = options.intervalMs ?? 250;
  const [stream, setStream] = useState<CallStream<C>>({ batch: { serial: 0, calls: [] }, live: [], printed: 0 });

  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const poll = async () => {
      try {
        const { settled, live } = await feed.current!.next();
        if (stopped) return;
        setStream((previous) => ({
          batch: settled.length > 0 ? { serial: previous.batch.serial + 1, calls: settled } : previous.batch,
          live,
          printed: previous.printed + settled.length,
        }));
        timer = setTimeout(poll, intervalMs);
      } catch (error) {
        if (!stopped) setStream((previous) => ({ ...previous, error: error as Error }));
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [intervalMs]);

  return stream;
}
