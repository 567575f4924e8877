/**
 * How the portable schema keeps values the drivers do not (docs/foundation.md): lists and objects as JSON
 * TEXT, flags as INTEGER 0/1. Repositories decode rows with these, so nothing above src/db sees either form.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJsonText<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function toFlag(value: boolean): number {
  return value ? 1 : 0;
}

/** Postgres answers INTEGER as a number; a COUNT or CASE may come back as text. */
export function fromFlag(value: number | string): boolean {
  return Number(value) === 1;
}
