import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Command, InvalidArgumentError } from 'commander';
import type { Call } from '../../../domain/audit/present.js';
import { CallFeed, type CallSource } from '../../ui/feed.js';
import type { StreamOptions } from '../../ui/useCallStream.js';
import { orgOption, withOrganization } from '../../context.js';
import { action } from '../../errors.js';
import { callQueryOf, withCallFilters, type FilterOptions } from './filters.js';
import { databaseSource } from './source.js';

interface TailOptions extends FilterOptions {
  interval: number;
}

function milliseconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 20 || Number(value) > 60000) throw new InvalidArgumentError('must be 20 to 60000 milliseconds');
  return Number(value);
}

/** Aborts on Ctrl-C, on SIGTERM and when the reader of stdout goes away (`| head`). */
function stopSignal(): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  const closed = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stop();
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
  process.stdout.on('error', closed);
  return {
    signal: controller.signal,
    release() {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      process.stdout.off('error', closed);
    },
  };
}

/** One JSON call per line, as each call finishes, until stopped. */
async function streamLines(source: CallSource<Call>, options: StreamOptions, signal: AbortSignal): Promise<void> {
  const feed = new CallFeed(source, options);
  while (!signal.aborted) {
    const { settled } = await feed.next();
    if (settled.length > 0 && !signal.aborted) {
      const flushed = process.stdout.write(`${settled.map((call) => JSON.stringify(call)).join('\n')}\n`);
      if (!flushed) await once(process.stdout, 'drain', { signal }).catch(() => undefined);
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

export const tail = withCallFilters(new Command('tail'))
  .description('follow calls as they happen: a live view on a terminal, else (or with --json) one JSON call per line')
  .option('--interval <ms>', 'how often to look for new calls', milliseconds, 250)
  .addOption(orgOption())
  .option('--json', 'one JSON call per line as each call finishes, instead of the live view')
  .action(
    action(async (options: TailOptions, command: Command) => {
      const { outcome, ...filters } = callQueryOf(command, options);
      const stop = stopSignal();
      try {
        await withOrganization(command, options, async (gateway, org) => {
          // The source reads every outcome; the feed applies --outcome so a call is followed until it ends.
          const source = databaseSource(gateway, org.id, filters);
          const streamOptions: StreamOptions = { outcome, intervalMs: options.interval };
          if (options.json || !process.stdout.isTTY) await streamLines(source, streamOptions, stop.signal);
          else await showLive(source, streamOptions, stop.signal);
        });
      } finally {
        stop.release();
      }
    }),
  );
