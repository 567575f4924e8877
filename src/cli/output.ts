import type { Command } from 'commander';
import { invocationOf } from './invocation.js';

/**
 * Control characters (ESC, BEL, CR, backspace, C1 codes, the Unicode line separators) shown as escapes:
 * what a command prints may echo an argument or a stored value, and none may act on the terminal
 * (clear it, move the cursor, fake a line). `lines: true` keeps the newlines and tabs the CLI lays out
 * itself; a cell or a one-line message escapes those too.
 */
export function printable(text: string, { lines = false } = {}): string {
  const controls = lines ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g : /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
  return text.replace(controls, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes one line (or lines) of a command's answer to its stdout. */
export function say(command: Command, text: string): void {
  invocationOf(command).stdout.write(`${printable(text, { lines: true })}\n`);
}

/** Prints one JSON document, or a table of rows with aligned columns. */
export function print(command: Command, json: boolean, value: unknown, table?: () => object[] | string): void {
  if (json || !table) return say(command, JSON.stringify(value, null, 2));
  const rows = table();
  say(command, typeof rows === 'string' ? rows : formatTable(rows));
}

export function formatTable(objects: object[]): string {
  const rows = objects as Array<Record<string, unknown>>;
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0]);
  const cell = (value: unknown) => printable(value === null || value === undefined ? '-' : Array.isArray(value) ? value.join(',') : String(value));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}
