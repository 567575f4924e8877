import type { Dialect } from '../test/support/databases.js';

/** `--name N` from the command line, else `fallback`. */
export function numberOption(argv: string[], name: string, fallback: number): number {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
}

/** `--only sqlite|postgres`, else both dialects. */
export function dialectsOption(argv: string[]): Dialect[] {
  const only = argv.indexOf('--only');
  return only === -1 ? ['sqlite', 'postgres'] : [argv[only + 1] as Dialect];
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};

export const fixed = (value: number | null | undefined, digits = 2) => (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
