import { Text } from 'ink';
import { Fragment } from 'react';
import { callCells, cellText, COLUMNS } from './cells.js';
import { OutcomeLabel } from './OutcomeLabel.js';
import type { TailCall } from './types.js';

/**
 * One call on one line, each column padded to its width and cut with an ellipsis when longer. It is
 * one text (the outcome a coloured span in it), which ink draws far faster than a box per cell.
 */
export function CallLine({ call, widths }: { call: TailCall; widths: number[] }) {
  const cells = callCells(call);
  return (
    <Text>
      {COLUMNS.map((column, i) => (
        <Fragment key={column.key}>
          {i > 0 && ' '}
          {column.key === 'outcome' ? <OutcomeLabel outcome={call.outcome} width={widths[i]} /> : cellText(column, cells[column.key], widths[i])}
        </Fragment>
      ))}
    </Text>
  );
}
