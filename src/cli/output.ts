import type { Command } from 'commander';
import { invocationOf } from './invocation.js';

/** Writes one line (or lines) of a command's answer to its stdout. */
export function say(command: Command, text: string): void {
  invocationOf(command).stdout.write(`${text}\n`);
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
  const cell = (value: unknown) => (value === null || value === undefined ? '-' : Array.isArray(value) ? value.join(',') : String(value));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}
