import type { DateRange } from '../../shared/analytics/index.ts';
import { dayNumber, defaultAnalyticsWindow } from '../../shared/analytics/index.ts';
import { type AnalyticsQuery, isIntervalGranularity } from '../../shared/schemas/analytics-query.ts';
import { formError } from '../core/lib/errors.ts';

export {
  type AnalyticsQuery,
  analyticsQuerySchema,
  DATA_TYPES,
  groupAnalyticsQuerySchema,
  type IntervalGranularity,
  isIntervalGranularity,
  itemAnalyticsQuerySchema,
  namesSeveralScopes,
  ONE_SCOPE_MESSAGE,
} from '../../shared/schemas/analytics-query.ts';

/** The longest window answered, and the longest at daily granularity (one bucket a day). */
const MAX_YEARS = 10;
const MAX_DAILY_DAYS = 3 * 366;
const MAX_HOURLY_DAYS = 93;
const MAX_HALF_HOURLY_DAYS = 31;

/**
 * The window asked for, each end defaulting to the default window's (02 §9: from the start of the month
 * a year ago to the end of last month), checked for order and size beside the field at fault.
 */
export function windowOf(q: AnalyticsQuery, today: string): DateRange {
  const fallback = defaultAnalyticsWindow(today);
  const window = { start: q.startDate ?? fallback.start, end: q.endDate ?? fallback.end };
  if (window.end < window.start)
    throw formError({
      [q.endDate ? 'endDate' : 'startDate']: 'The end date must be on or after the start date',
    });
  const days = dayNumber(window.end) - dayNumber(window.start) + 1;
  if (days > MAX_YEARS * 366)
    throw formError({ startDate: `The window can be at most ${MAX_YEARS} years long` });
  if (q.granularity === 'daily' && days > MAX_DAILY_DAYS)
    throw formError({ granularity: 'Daily figures cover at most three years: choose a coarser granularity' });
  if (q.granularity === 'hourly' && days > MAX_HOURLY_DAYS)
    throw formError({ granularity: 'Hourly figures cover at most 93 days: choose a coarser granularity' });
  if (q.granularity === 'halfhourly' && days > MAX_HALF_HOURLY_DAYS)
    throw formError({
      granularity: 'Half-hourly figures cover at most 31 days: choose a coarser granularity',
    });
  return window;
}

/**
 * Refuses, beside the field at fault, what the figures cannot answer rather than answering something
 * else: figures finer than a day come from interval data alone (meter readings, no bills, no user split
 * kept), month by month parts being meaningless there; and only the consumption analytics are split.
 */
export function refuseUnanswerable(q: AnalyticsQuery, byPeriod: boolean): void {
  const messages: Record<string, string> = {};
  const fine = isIntervalGranularity(q.granularity);
  const unsplit = byPeriod
    ? fine && 'Half-hourly and hourly figures come from interval data alone: choose daily or coarser'
    : 'Only consumption and asset-consumption give figures by source';
  if (unsplit && q.detailedSource) messages.detailedSource = unsplit;
  if (unsplit && q.sourceData) messages.sourceData = unsplit;
  if (!byPeriod && q.source !== 'combined')
    messages.source = 'Only consumption and asset-consumption give figures by source';
  else if (fine && q.source === 'invoices')
    messages.source =
      'Bills give no half-hourly or hourly figures: choose daily or coarser, or source=readings';
  if (q.meterUserBreakdown && unsplit)
    messages.meterUserBreakdown = byPeriod
      ? 'Half-hourly and hourly figures are not split by meter user: choose daily or coarser'
      : 'Only consumption and asset-consumption give figures by meter user';
  if (Object.keys(messages).length > 0) throw formError(messages);
}
