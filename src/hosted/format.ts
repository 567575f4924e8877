const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** Times on the pages: unambiguous for a reader anywhere, e.g. "22 Nov 2026, 14:05 UTC". */
export function formatTime(time: number | string): string {
  return `${dateTime.format(new Date(time))} UTC`;
}
