import type { Outcome, TailCall } from './types.js';

export interface Column {
  key: 'time' | 'task' | 'principal' | 'identity' | 'outcome' | 'status' | 'charged' | 'latency';
  title: string;
  /** Width in characters when the terminal is wide enough. */
  width: number;
  /**
   * Text columns give up width on a narrow terminal, the others keep theirs: down to this width first
   * (enough for the usual values, `connection:` and a tail of its id), then down to six characters.
   */
  shrinks?: { comfortable: number };
  alignRight?: boolean;
}

/** The tail's columns, in order, one space apart. */
export const COLUMNS: Column[] = [
  { key: 'time', title: 'TIME', width: 12 },
  { key: 'task', title: 'TASK', width: 30, shrinks: { comfortable: 20 } },
  { key: 'principal', title: 'PRINCIPAL', width: 14, shrinks: { comfortable: 9 } },
  { key: 'identity', title: 'IDENTITY', width: 24, shrinks: { comfortable: 18 } },
  { key: 'outcome', title: 'OUTCOME', width: 7 },
  // The HTTP status and error code the caller got: a 400 invalid_input and a 502 upstream_error are both faults.
  { key: 'status', title: 'STATUS', width: 24, shrinks: { comfortable: 8 } },
  { key: 'charged', title: 'CHARGED', width: 11, alignRight: true },
  { key: 'latency', title: 'LATENCY', width: 8, alignRight: true },
];

export type CellKey = Column['key'];

export const OUTCOME_COLORS: Record<Outcome, string> = { hit: 'green', miss: 'yellow', fault: 'red', pending: 'gray' };

const MIN_TEXT_WIDTH = 6;

const total = (widths: number[]) => widths.reduce((sum, width) => sum + width, 0);

/** Widths from `from` towards `to`, each column getting the same fraction of its way, within `available`. */
function widen(from: number[], to: number[], available: number): number[] {
  const fraction = Math.min(1, (available - total(from)) / (total(to) - total(from)));
  const widths = from.map((width, i) => width + Math.floor((to[i] - width) * fraction));
  // What rounding down leaves goes to the columns in order, the task first.
  let spare = Math.min(available, total(to)) - total(widths);
  return widths.map((width, i) => (spare > 0 && width < to[i] ? (spare--, width + 1) : width));
}

/**
 * Column widths that fit a terminal `columns` wide: the text columns shrink towards their comfortable
 * widths first, all by the same fraction, and only below those (never below six) when the terminal is
 * narrower still (at 100 columns every one is exactly comfortable).
 */
export function fitColumns(columns: number): number[] {
  const text = COLUMNS.filter((column) => column.shrinks);
  const fixed = total(COLUMNS.filter((column) => !column.shrinks).map((column) => column.width));
  const available = columns - fixed - (COLUMNS.length - 1);
  const least = text.map(() => MIN_TEXT_WIDTH);
  const comfortable = text.map((column) => column.shrinks!.comfortable);
  const natural = text.map((column) => column.width);
  const widths =
    available >= total(comfortable) ? widen(comfortable, natural, available) : widen(least, comfortable, Math.max(total(least), available));
  return COLUMNS.map((column) => (column.shrinks ? widths.shift()! : column.width));
}

/** A value padded to exactly `width` characters, cut with an ellipsis when longer. */
export function fit(value: string, width: number, alignRight = false): string {
  if (value.length > width) return `${value.slice(0, width - 1)}…`;
  return alignRight ? value.padStart(width) : value.padEnd(width);
}

/**
 * An identity padded to `width`, cut from the front of its id when longer: `connection:…7s8t9v0w`.
 * Ids start with their type and time and end with their random part, so the end is what tells two
 * connections apart; the kind (`connection:`) stays while there is room for a useful tail.
 */
export function fitIdentity(value: string, width: number): string {
  if (value.length <= width) return value.padEnd(width);
  const kind = value.slice(0, value.indexOf(':') + 1);
  const keep = width - kind.length - 1 >= MIN_TEXT_WIDTH ? kind : '';
  return `${keep}…${value.slice(value.length - (width - keep.length - 1))}`;
}

/** A cell's text at its width: an identity is cut from the front of its id, anything else at the end. */
export function cellText(column: Column, value: string, width: number): string {
  return column.key === 'identity' ? fitIdentity(value, width) : fit(value, width, column.alignRight);
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
    // A run under an approval says so beside its status (`200 approved`); the approval id is in --json.
    status: pending || call.http_status === null ? '-' : [call.http_status, call.error_code ?? (call.approval_id ? 'approved' : null)].filter((part) => part !== null).join(' '),
    charged: pending ? '-' : dollars(call.charged_usd),
    latency: pending || call.latency_ms === null ? '-' : `${call.latency_ms} ms`,
  };
}
