/**
 * Calendar-day arithmetic on YYYY-MM-DD strings. Days are counted in UTC so a day is always 24 hours long
 * here; clock changes only matter for half-hourly data (see half-hourly.ts).
 */
const DAY_MS = 86_400_000;

/** Days since 1970-01-01. */
export function dayNumber(iso: string): number {
  const t = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) throw new RangeError(`Not a date: ${iso}`);
  return Math.round(t / DAY_MS);
}

export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(iso: string, days: number): string {
  return isoDate(dayNumber(iso) + days);
}

/** Both dates counted, as bills print their periods; 0 when the end is before the start. */
export function daysInclusive(start: string, end: string): number {
  return Math.max(0, dayNumber(end) - dayNumber(start) + 1);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Moves by whole months, clamping the day to the target month's length (31 March − 1 month = 28/29 Feb). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(d, daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function isLastDayOfMonth(iso: string): boolean {
  return addDays(iso, 1).slice(8) === '01';
}

export function eachDay(start: string, end: string): string[] {
  const from = dayNumber(start);
  const to = dayNumber(end);
  const out: string[] = [];
  for (let d = from; d <= to; d++) out.push(isoDate(d));
  return out;
}

export interface DateRange {
  /** YYYY-MM-DD, inclusive */
  start: string;
  /** YYYY-MM-DD, inclusive */
  end: string;
}

/** Consecutive runs of the given days (which need not be sorted) as inclusive ranges. */
export function runsOf(days: readonly string[]): DateRange[] {
  const sorted = [...new Set(days.map(dayNumber))].sort((a, b) => a - b);
  const runs: DateRange[] = [];
  let first: number | undefined;
  let prev = Number.NaN;
  for (const d of sorted) {
    if (first === undefined) first = d;
    else if (d !== prev + 1) {
      runs.push({ start: isoDate(first), end: isoDate(prev) });
      first = d;
    }
    prev = d;
  }
  if (first !== undefined) runs.push({ start: isoDate(first), end: isoDate(prev) });
  return runs;
}
