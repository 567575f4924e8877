import type { Outcome, TailCall } from './types.js';

export interface Column {
  key: 'time' | 'task' | 'principal' | 'identity' | 'outcome' | 'charged' | 'latency';
  title: string;
  /** Width in characters when the terminal is wide enough. */
  width: number;
  /** Text columns give up width on a narrow terminal; the others keep theirs. */
  shrinks?: boolean;
  alignRight?: boolean;
}

/** The tail's columns, in order, one space apart. */
export const COLUMNS: Column[] = [
  { key: 'time', title: 'TIME', width: 12 },
  { key: 'task', title: 'TASK', width: 30, shrinks: true },
  { key: 'principal', title: 'PRINCIPAL', width: 18, shrinks: true },
  { key: 'identity', title: 'IDENTITY', width: 22, shrinks: true },
  { key: 'outcome', title: 'OUTCOME', width: 7 },
  { key: 'charged', title: 'CHARGED', width: 11, alignRight: true },
  { key: 'latency', title: 'LATENCY', width: 9, alignRight: true },
];

export type CellKey = Column['key'];

export const OUTCOME_COLORS: Record<Outcome, string> = { hit: 'green', miss: 'yellow', fault: 'red', pending: 'gray' };

const MIN_TEXT_WIDTH = 6;

/** Column widths that fit a terminal `columns` wide: text columns shrink in proportion, never below six. */
export function fitColumns(columns: number): number[] {
  const natural = COLUMNS.reduce((sum, column) => sum + column.width, 0) + COLUMNS.length - 1;
  const textWidth = COLUMNS.filter((column) => column.shrinks).reduce((sum, column) => sum + column.width, 0);
  const scale = Math.min(1, Math.max(0, textWidth - (natural - columns)) / textWidth);
  return COLUMNS.map((column) => (column.shrinks ? Math.max(MIN_TEXT_WIDTH, Math.floor(column.width * scale)) : column.width));
}

/** A value padded to exactly `width` characters, cut with an ellipsis when longer. */
export function fit(value: string, width: number, alignRight = false): string {
  if (value.length > width) return `${value.slice(0, width - 1)}…`;
  return alignRight ? value.padStart(width) : value.padEnd(width);
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time with milliseconds: calls a second apart must still read apart. */
export function clockTime(iso: string): string {
  const at = new Date(iso);
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

/** USD with at least two and at most six decimals (prices are whole micro-dollars). */
export function dollars(usd: number): string {
  const [whole, fraction] = usd.toFixed(6).split('.');
  return `$${whole}.${fraction.replace(/0{1,4}$/, '')}`;
}

/** What each column shows for a call; a pending call has no charge or latency yet. */
export function callCells(call: TailCall): Record<CellKey, string> {
  const pending = call.outcome === 'pending';
  return {
    time: clockTime(call.created_at),
    task: call.task,
    principal: call.principal,
    identity: call.identity ?? '-',
    outcome: call.outcome,
    charged: pending ? '-' : dollars(call.charged_usd),
    latency: pending || call.latency_ms === null ? '-' : `${call.latency_ms} ms`,
  };
}
