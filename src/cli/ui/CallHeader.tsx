import { Text } from 'ink';
import { COLUMNS, fit } from './cells.js';

export function CallHeader({ widths }: { widths: number[] }) {
  return <Text bold>{COLUMNS.map((column, i) => fit(column.title, widths[i], column.alignRight)).join(' ')}</Text>;
}
