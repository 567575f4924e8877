import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { Call } from '../../../domain/audit/present.js';
import { CallFeed, type CallSource } from '../../ui/feed.js';
import type { StreamOptions } from '../../ui/useCallStream.js';
import { withOrganization } from '../../context.js';
import { invocationOf, type Invocation } from '../../invocation.js';
import { callQueryOf, type FilterOptions } from './filters.js';
import { databaseSource } from './source.js';

interface TailOptions extends FilterOptions {
  interval: number;
}

/** Aborts on Ctrl-C, on SIGTERM and when the reader of stdout goes away (`| head`). */
function stopSignal(stdout: Invocation['stdout']): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  const closed = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stop();
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
  stdout.on('error', closed);
  return {
    signal: controller.signal,
    release() {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      stdout.off('error', closed);
    },
  };
}

/** One JSON call per line, as each call finishes, until stopped. */
async function streamLines(source: CallSource<Call>, options: StreamOptions, stdout: Invocation['stdout'], signal: AbortSignal): Promise<void> {
  const feed = new CallFeed(source, options);
  while (!signal.aborted) {
    const { settled } = await feed.next();
    if (settled.length > 0 && !signal.aborted) {
      const flushed = stdout.write(`${settled.map((call) => JSON.stringify(call)).join('\n')}\n`);
      if (!flushed) await once(stdout as NodeJS.EventEmitter, 'drain', { signal }).catch(() => undefined);
    }
    await sleep(options.intervalMs, undefined, { signal }).catch(() => undefined);
  }
}

/** The live ink view. ink and React load only here, so other commands start without them. */
async function showLive(source: CallSource<Call>, options: StreamOptions, signal: AbortSignal): Promise<void> {
  // React's development build costs several times the CPU per row; a CLI is never a development build.
  process.env.NODE_ENV ??= 'production';
  const [{ render }, { createElement }, { TailApp }] = await Promise.all([import('ink'), import('react'), import('../../ui/TailApp.js')]);
  const app = render(createElement(TailApp, { source, options }), { exitOnCtrlC: true });
  signal.addEventListener('abort', () => app.unmount(), { once: true });
  await app.waitUntilExit();
}

export async function run(options: TailOptions, command: Command): Promise<void> {
  const { outcome, ...filters } = callQueryOf(command, options);
  const { stdout } = invocationOf(command);
  const stop = stopSignal(stdout);
  try {
    await withOrganization(command, options, async (gateway, org) => {
      // The source reads every outcome; the feed applies --outcome so a call is followed until it ends.
      const source = databaseSource(gateway, org.id, filters);
      const streamOptions: StreamOptions = { outcome, intervalMs: options.interval };
      if (options.json || !stdout.isTTY) await streamLines(source, streamOptions, stdout, stop.signal);
      else await showLive(source, streamOptions, stop.signal);
    });
  } finally {
    stop.release();
  }
}
