import { Box, Static, Text } from 'ink';
import { CallHeader } from './CallHeader.js';
import { CallLines } from './CallLines.js';
import { fitColumns } from './cells.js';
import type { CallBatch } from './useCallStream.js';
import type { TailCall } from './types.js';

export interface CallTailProps {
  batch: CallBatch<TailCall>;
  live: TailCall[];
  printed: number;
  /** Terminal width in characters. */
  width?: number;
  /** How many in-flight calls are drawn; the rest are counted. A short live area redraws in place without flicker. */
  liveRows?: number;
}

/**
 * The tail view: finished calls are printed once through <Static> (they scroll away and are never
 * redrawn); in-flight calls stay in the small live area below until they finish. Each batch mounts
 * a fresh <Static> keyed by its serial, so only the latest batch is held, never the whole history.
 */
export function CallTail({ batch, live, printed, width = 100, liveRows = 10 }: CallTailProps) {
  const widths = fitColumns(width);
  const hidden = live.length - liveRows;
  return (
    <>
      <Static key={batch.serial} items={[batch]}>
        {(printing) =>
          printing.serial === 0 ? (
            <CallHeader key="header" widths={widths} />
          ) : (
            <CallLines key={printing.serial} calls={printing.calls} widths={widths} />
          )
        }
      </Static>
      <Box flexDirection="column">
        {live.length > 0 && <CallLines calls={live.slice(0, liveRows)} widths={widths} />}
        {hidden > 0 && <Text dimColor>… {hidden} more in flight</Text>}
        <Text dimColor>
          {printed} {printed === 1 ? 'call' : 'calls'} · {live.length} in flight · Ctrl-C to quit
        </Text>
      </Box>
    </>
  );
}
