import { InputRefused } from '../errors.js';

function zoneFormatter(timezone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw new InputRefused(`unknown time zone ${timezone}`, [{ name: 'timezone', reason: 'must be an IANA time zone such as Europe/Paris' }]);
  }
}

/** The wall-clock reading of an instant in a time zone, with the zone's UTC offset at that instant. */
function inZone(instant: Date, timezone: string) {
  const parts = Object.fromEntries(zoneFormatter(timezone).formatToParts(instant).map((p) => [p.type, p.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  return {
    timezone: zoneFormatter(timezone).resolvedOptions().timeZone,
    local: `${local}${offset}`,
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
    weekday: parts.weekday,
    utc_offset: offset,
    utc: instant.toISOString(),
    unix_ms: instant.getTime(),
  };
}

export function timeNow(input: { timezone?: string }) {
  return inZone(new Date(), input.timezone ?? 'UTC');
}

export function timeConvert(input: { instant: string; timezone: string }) {
  const instant = new Date(input.instant);
  if (Number.isNaN(instant.getTime())) {
    throw new InputRefused(`${input.instant} is not a date and time`, [{ name: 'instant', reason: 'must be an ISO 8601 date-time such as 2026-03-01T12:00:00Z' }]);
  }
  return inZone(instant, input.timezone);
}
