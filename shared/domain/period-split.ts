/**
 * Shares a bill's figures out over the calendar months of its period by days, so a bill from 15 January
 * to 14 February counts 17/31 in January and 14/31 in February; monthly analytics read the shares.
 */
export interface MonthShare {
  /** YYYY-MM */
  month: string;
  days: number;
  /** Of the whole period, 0 to 1 */
  fraction: number;
}

const DAY_MS = 86_400_000;

function utcDay(iso: string): number {
  const t = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(t)) throw new Error(`Not a date: ${iso}`);
  return t;
}

/** Inclusive of both dates, as bills print their periods. Empty when the end is before the start. */
export function splitPeriodByMonth(start: string, end: string): MonthShare[] {
  const from = utcDay(start);
  const to = utcDay(end);
  if (to < from) return [];
  const total = Math.round((to - from) / DAY_MS) + 1;
  const shares: MonthShare[] = [];
  let cursor = from;
  while (cursor <= to) {
    const d = new Date(cursor);
    const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    const last = Math.min(to, nextMonth - DAY_MS);
    const days = Math.round((last - cursor) / DAY_MS) + 1;
    shares.push({ month: new Date(cursor).toISOString().slice(0, 7), days, fraction: days / total });
    cursor = nextMonth;
  }
  return shares;
}

/**
 * Days of a period, by calendar month, that fall in any of the given periods (each inclusive), an overlap
 * counted once: how much of a bill a contract covered.
 */
export function coveredDaysByMonth(
  start: string,
  end: string,
  periods: readonly { startDate: string; endDate: string }[],
): Map<string, number> {
  const out = new Map<string, number>();
  if (periods.length === 0) return out;
  const ranges = periods.map((p) => [utcDay(p.startDate), utcDay(p.endDate)] as const);
  for (let t = utcDay(start); t <= utcDay(end); t += DAY_MS) {
    if (!ranges.some(([a, b]) => a <= t && t <= b)) continue;
    const month = new Date(t).toISOString().slice(0, 7);
    out.set(month, (out.get(month) ?? 0) + 1);
  }
  return out;
}
