import { addDays, addMonths, type DateRange, daysInclusive, isLastDayOfMonth } from './dates.ts';

/** The analytics compare options: previous period, month, quarter, year, or none. */
export type ComparePeriod = 'period' | 'month' | 'quarter' | 'year' | 'none';

/** A date moved back by months, keeping a month-end on the month-end (30 June − 1 month = 31 May). */
function monthsBack(date: string, months: number): string {
  const moved = addMonths(date, -months);
  if (!isLastDayOfMonth(date)) return moved;
  const nextMonthStart = addMonths(`${moved.slice(0, 7)}-01`, 1);
  return addDays(nextMonthStart, -1);
}

/**
 * The window a window is compared with. 'period' is the same number of days just before it (so 1-31 March
 * compares with 29 January to 28 February in a common year); 'month', 'quarter' and 'year' move both ends
 * back by 1, 3 or 12 months, a month-end staying a month-end; 'none' has no comparison.
 */
export function comparisonWindow(window: DateRange, compare: ComparePeriod): DateRange | undefined {
  if (compare === 'none') return undefined;
  if (compare === 'period') return daysBefore(window);
  return shiftedBack(window, compare === 'month' ? 1 : compare === 'quarter' ? 3 : 12);
}

function daysBefore(window: DateRange): DateRange {
  const days = daysInclusive(window.start, window.end);
  return { start: addDays(window.start, -days), end: addDays(window.start, -1) };
}

function shiftedBack(window: DateRange, months: number): DateRange {
  return { start: monthsBack(window.start, months), end: monthsBack(window.end, months) };
}

/**
 * A dashboard widget's comparison: a full calendar month with the previous month, a full calendar year with
 * the previous year, anything else with the same number of days just before.
 */
export function widgetComparisonWindow(window: DateRange): DateRange {
  const fullMonth =
    window.start.slice(8) === '01' &&
    window.start.slice(0, 7) === window.end.slice(0, 7) &&
    isLastDayOfMonth(window.end);
  if (fullMonth) return shiftedBack(window, 1);
  const fullYear =
    window.start.slice(5) === '01-01' &&
    window.end.slice(5) === '12-31' &&
    window.start.slice(0, 4) === window.end.slice(0, 4);
  if (fullYear) return shiftedBack(window, 12);
  return daysBefore(window);
}

/** The default analytics window on a day: from the start of the month a year ago to the end of last month. */
export function defaultAnalyticsWindow(today: string): DateRange {
  const thisMonthStart = `${today.slice(0, 7)}-01`;
  return { start: addMonths(thisMonthStart, -12), end: addDays(thisMonthStart, -1) };
}
