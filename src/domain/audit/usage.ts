import { sumCallsPerDay } from '../../db/repos/calls.js';
import type { Gateway } from '../gateway.js';
import { microsToUsd } from '../run/request.js';

export const USAGE_DAYS = [1, 7, 30] as const;
export type UsageDays = (typeof USAGE_DAYS)[number];

const DAY_MS = 86_400_000;

export interface Usage {
  days: UsageDays;
  /** The key or token the figures are limited to, or null for the whole organization. */
  token: string | null;
  /** First UTC day counted (YYYY-MM-DD); the last is today, so far. */
  from: string;
  to: string;
  per_day: Array<{ date: string; calls: number; charged_usd: number }>;
  totals: { calls: number; charged_usd: number };
}

/** GET /v1/usage: calls and charges per UTC day over the last `days` days, today so far among them; every day listed, oldest first. */
export async function usage(gateway: Pick<Gateway, 'db'>, organizationId: string, days: UsageDays, token?: string, now = Date.now()): Promise<Usage> {
  const today = Math.floor(now / DAY_MS);
  const firstDay = today - days + 1;
  const sums = new Map((await sumCallsPerDay(gateway.db, organizationId, firstDay * DAY_MS, token)).map((row) => [row.day, row]));
  const perDay = [];
  let calls = 0;
  let charged = 0;
  for (let day = firstDay; day <= today; day++) {
    const sum = sums.get(day);
    calls += sum?.calls ?? 0;
    charged += sum?.charged_micros ?? 0;
    perDay.push({ date: dateOf(day), calls: sum?.calls ?? 0, charged_usd: microsToUsd(sum?.charged_micros ?? 0) });
  }
  return { days, token: token ?? null, from: dateOf(firstDay), to: dateOf(today), per_day: perDay, totals: { calls, charged_usd: microsToUsd(charged) } };
}

function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
