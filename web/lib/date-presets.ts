/**
 * The date presets of 01 §9. Days are calendar days written YYYY-MM-DD, so a range means the same days
 * in every time zone; "today" is the user's local day.
 */

export interface DateRangePreset {
  key: string;
  label: string;
  /** First day of the range, inclusive. */
  start: string;
  /** Last day of the range, inclusive. */
  end: string;
}

export interface SingleDatePreset {
  key: string;
  label: string;
  date: string;
}

interface Day {
  year: number;
  /** 0-11 */
  month: number;
  day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The last day of a month; `month` may run outside 0-11 and rolls over into other years. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function normalise(year: number, month: number, day: number): Day {
  const d = new Date(Date.UTC(year, month, day));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
}

export function isoDay(d: Day): string {
  return `${pad(d.year, 4)}-${pad(d.month + 1)}-${pad(d.day)}`;
}

const firstOf = (year: number, month: number) => isoDay(normalise(year, month, 1));
const lastOf = (year: number, month: number) => {
  const first = normalise(year, month, 1);
  return isoDay({ ...first, day: daysIn(first.year, first.month) });
};

/** The same day some months earlier, or that month's last day when it is shorter (31 Mar - 1 month = 28/29 Feb). */
function monthsBefore(today: Day, months: number): Day {
  const first = normalise(today.year, today.month - months, 1);
  return { ...first, day: Math.min(today.day, daysIn(first.year, first.month)) };
}

function dayOf(now: Date): Day {
  return { year: now.getFullYear(), month: now.getMonth(), day: now.getDate() };
}

/** The range presets, in the order a picker lists them. */
export function dateRangePresets(now: Date = new Date()): DateRangePreset[] {
  const today = dayOf(now);
  const { year, month } = today;
  const quarterStart = Math.floor(month / 3) * 3 - 3;
  return [
    { key: 'current-month', label: 'Current month', start: firstOf(year, month), end: lastOf(year, month) },
    { key: 'last-month', label: 'Last month', start: firstOf(year, month - 1), end: lastOf(year, month - 1) },
    {
      key: 'past-month-to-date',
      label: 'Past month to date',
      start: isoDay(monthsBefore(today, 1)),
      end: isoDay(today),
    },
    {
      key: 'last-3-calendar-months',
      label: 'Last 3 calendar months',
      start: firstOf(year, month - 3),
      end: lastOf(year, month - 1),
    },
    {
      key: 'last-12-calendar-months',
      label: 'Last 12 calendar months',
      start: firstOf(year, month - 12),
      end: lastOf(year, month - 1),
    },
    {
      key: 'last-quarter',
      label: 'Last Quarter',
      start: firstOf(year, quarterStart),
      end: lastOf(year, quarterStart + 2),
    },
    {
      key: 'current-year',
      label: 'Current year',
      start: `${pad(year, 4)}-01-01`,
      end: `${pad(year, 4)}-12-31`,
    },
    {
      key: 'past-year-to-date',
      label: 'Past year to date',
      start: isoDay(monthsBefore(today, 12)),
      end: isoDay(today),
    },
    ...[1, 2].map((back) => ({
      key: `year-${year - back}`,
      label: String(year - back),
      start: `${pad(year - back, 4)}-01-01`,
      end: `${pad(year - back, 4)}-12-31`,
    })),
  ];
}

/** The single-date presets: Today, Yesterday, 1 Week Ago and further back. */
export function singleDatePresets(now: Date = new Date()): SingleDatePreset[] {
  const today = dayOf(now);
  const daysBack = (n: number) => isoDay(normalise(today.year, today.month, today.day - n));
  return [
    { key: 'today', label: 'Today', date: isoDay(today) },
    { key: 'yesterday', label: 'Yesterday', date: daysBack(1) },
    { key: '1-week-ago', label: '1 Week Ago', date: daysBack(7) },
    { key: '1-month-ago', label: '1 Month Ago', date: isoDay(monthsBefore(today, 1)) },
    { key: '3-months-ago', label: '3 Months Ago', date: isoDay(monthsBefore(today, 3)) },
    { key: '6-months-ago', label: '6 Months Ago', date: isoDay(monthsBefore(today, 6)) },
    { key: '1-year-ago', label: '1 Year Ago', date: isoDay(monthsBefore(today, 12)) },
  ];
}

export interface DayRange {
  start: string;
  end: string;
}

/**
 * A range after one of its ends is typed in. An emptied input changes nothing (a range always has
 * both ends), and an end typed past the other one takes the other one with it, so start <= end.
 */
export function withRangeDay(range: DayRange, side: 'start' | 'end', day: string): DayRange {
  if (!day) return range;
  if (side === 'start') return { start: day, end: day > range.end ? day : range.end };
  return { start: day < range.start ? day : range.start, end: day };
}
