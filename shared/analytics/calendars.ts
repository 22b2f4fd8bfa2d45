import { addDays, dayNumber, daysInMonth, isoDate } from './dates.ts';

export type Granularity = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';

/**
 * The company setting "calendar period": Standard, "13 Week Periods UK Financial Year" or "Rail Calendar".
 * The specification gives only these labels; the readings below are ours.
 *
 * - standard: ISO weeks (Monday start), calendar months, quarters from January, calendar years.
 * - thirteen-week: the UK financial year from 1 April cut into four quarters of 13 weeks, each quarter into
 *   periods of 4, 4 and 5 weeks (the 4-4-5 retail pattern), giving 12 periods in place of months. Weeks
 *   count from 1 April.
 * - rail: the rail industry's year, 13 periods of four weeks from 1 April, as Network Rail works (period
 *   dates vary by operator; this is the plain form). Quarters are periods 1-3, 4-6, 7-9 and 10-13.
 *
 * 52 weeks are 364 days, so both financial calendars end with a short remainder: the one day (two in a
 * year holding 29 February) up to 31 March joins the last week, the last period and the last quarter, so
 * every year still runs exactly 1 April to 31 March and no day falls outside a bucket.
 */
export type CalendarPeriod = 'standard' | 'thirteen-week' | 'rail';

export interface Bucket {
  /** Sortable and unique within a granularity and calendar, e.g. 2025-03, 2025-W09, FY2025-P01 */
  key: string;
  label: string;
  /** YYYY-MM-DD, inclusive */
  start: string;
  /** YYYY-MM-DD, inclusive */
  end: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Weeks in each period of a 4-4-5 financial year. */
const FOUR_FOUR_FIVE = [4, 4, 5, 4, 4, 5, 4, 4, 5, 4, 4, 5] as const;
const RAIL_QUARTER_PERIODS = [3, 3, 3, 4] as const;

function parts(date: string): [number, number, number] {
  return date.split('-').map(Number) as [number, number, number];
}

/** The year in which the financial year holding the date starts (1 April). */
export function financialYearOf(date: string): number {
  const [y, m] = parts(date);
  return m >= 4 ? y : y - 1;
}

function fyLabel(fy: number): string {
  return `FY${fy}/${pad((fy + 1) % 100)}`;
}

function standardBucket(date: string, granularity: Exclude<Granularity, 'daily'>): Bucket {
  const [y, m] = parts(date);
  if (granularity === 'weekly') {
    const day = dayNumber(date);
    // 1970-01-01 was a Thursday; ISO weeks start on Monday.
    const monday = day - ((day + 3) % 7);
    const thursday = isoDate(monday + 3);
    const isoYear = Number(thursday.slice(0, 4));
    const week = Math.floor((monday + 3 - dayNumber(`${isoYear}-01-01`)) / 7) + 1;
    return {
      key: `${isoYear}-W${pad(week)}`,
      label: `Week ${week} ${isoYear}`,
      start: isoDate(monday),
      end: isoDate(monday + 6),
    };
  }
  if (granularity === 'monthly') {
    return {
      key: `${y}-${pad(m)}`,
      label: `${MONTHS[m - 1]} ${y}`,
      start: `${y}-${pad(m)}-01`,
      end: `${y}-${pad(m)}-${pad(daysInMonth(y, m))}`,
    };
  }
  if (granularity === 'quarterly') {
    const q = Math.floor((m - 1) / 3) + 1;
    const last = q * 3;
    return {
      key: `${y}-Q${q}`,
      label: `Q${q} ${y}`,
      start: `${y}-${pad(last - 2)}-01`,
      end: `${y}-${pad(last)}-${pad(daysInMonth(y, last))}`,
    };
  }
  return { key: `${y}`, label: `${y}`, start: `${y}-01-01`, end: `${y}-12-31` };
}

/** Consecutive runs of whole weeks from 1 April; the last run takes the remainder up to 31 March. */
function fiscalSlice(
  date: string,
  weeksEach: readonly number[],
): { index: number; start: string; end: string } {
  const fy = financialYearOf(date);
  const yearStart = dayNumber(`${fy}-04-01`);
  const yearEnd = dayNumber(`${fy + 1}-03-31`);
  const offset = dayNumber(date) - yearStart;
  let from = 0;
  for (let i = 0; i < weeksEach.length; i++) {
    const to = i === weeksEach.length - 1 ? yearEnd - yearStart : from + (weeksEach[i] ?? 0) * 7 - 1;
    if (offset <= to) return { index: i + 1, start: isoDate(yearStart + from), end: isoDate(yearStart + to) };
    from = to + 1;
  }
  throw new RangeError(`No period for ${date}`);
}

function fiscalBucket(
  date: string,
  granularity: Exclude<Granularity, 'daily'>,
  calendar: Exclude<CalendarPeriod, 'standard'>,
): Bucket {
  const fy = financialYearOf(date);
  const year = fyLabel(fy);
  if (granularity === 'yearly') {
    return { key: `FY${fy}`, label: year, start: `${fy}-04-01`, end: `${fy + 1}-03-31` };
  }
  if (granularity === 'weekly') {
    const s = fiscalSlice(
      date,
      Array.from({ length: 52 }, () => 1),
    );
    return { key: `FY${fy}-W${pad(s.index)}`, label: `${year} week ${s.index}`, start: s.start, end: s.end };
  }
  if (granularity === 'monthly') {
    const weeks = calendar === 'rail' ? Array.from({ length: 13 }, () => 4) : FOUR_FOUR_FIVE;
    const s = fiscalSlice(date, weeks);
    return { key: `FY${fy}-P${pad(s.index)}`, label: `${year} P${s.index}`, start: s.start, end: s.end };
  }
  const weeks = calendar === 'rail' ? RAIL_QUARTER_PERIODS.map((p) => p * 4) : [13, 13, 13, 13];
  const s = fiscalSlice(date, weeks);
  return { key: `FY${fy}-Q${s.index}`, label: `${year} Q${s.index}`, start: s.start, end: s.end };
}

/** The bucket holding a date at a granularity under the company's calendar setting. */
export function bucketOf(
  date: string,
  granularity: Granularity,
  calendar: CalendarPeriod = 'standard',
): Bucket {
  // Throws on a malformed date before any bucket is made from it.
  dayNumber(date);
  if (granularity === 'daily') return { key: date, label: date, start: date, end: date };
  if (calendar === 'standard') return standardBucket(date, granularity);
  return fiscalBucket(date, granularity, calendar);
}

/** Every bucket meeting a window, in order, the first and last possibly reaching outside it. */
export function bucketsBetween(
  start: string,
  end: string,
  granularity: Granularity,
  calendar: CalendarPeriod = 'standard',
): Bucket[] {
  const out: Bucket[] = [];
  let cursor = start;
  while (cursor <= end) {
    const bucket = bucketOf(cursor, granularity, calendar);
    out.push(bucket);
    cursor = addDays(bucket.end, 1);
  }
  return out;
}
