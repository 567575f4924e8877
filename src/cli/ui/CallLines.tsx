import { Text } from 'ink';
import { Fragment } from 'react';
import { CallLine } from './CallLine.js';
import type { TailCall } from './types.js';

/** Calls one per line as a single text: a batch of hundreds costs one layout node, not hundreds. */
export function CallLines({ calls, widths }: { calls: TailCall[]; widths: number[] }) {
  return (
    <Text>
      {calls.map((call, i) => (
        <Fragment key={call.id}>
          {i > 0 && '\n'}
          <CallLine call={call} widths={widths} />
        </Fragment>
      ))}
    </Text>
  );
}
