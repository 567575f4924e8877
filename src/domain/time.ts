/** How every record shows a stored time (epoch milliseconds): an ISO 8601 UTC string. */
export function isoTime(ms: number): string {
  return new Date(Number(ms)).toISOString();
}

export function isoTimeOrNull(ms: number | null): string | null {
  return ms == null ? null : isoTime(ms);
}
