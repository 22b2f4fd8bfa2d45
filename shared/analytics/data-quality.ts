import type { BillRecord } from './calendarise.ts';
import { addMonths, type DateRange, daysInclusive } from './dates.ts';
import { type BillOverlap, buildMeterTimeline, type DailyValue, type GapFill } from './meter-timeline.ts';

export interface MonthlyUse {
  /** YYYY-MM */
  month: string;
  quantity: number;
  /** Days of the month the quantity covers */
  days: number;
}

export interface Outlier {
  month: string;
  /** Use per day in the month */
  dailyUse: number;
  /** Median use per day of the neighbouring months */
  neighbourMedian: number;
  /** dailyUse ÷ neighbourMedian */
  ratio: number;
  direction: 'high' | 'low';
}

export interface OutlierRule {
  /** A month is an outlier above factor × the median or below median ÷ factor; default 3 */
  factor?: number;
  /** Months either side that count as neighbours; default 2 */
  reach?: number;
  /** Fewest neighbours with data needed to judge a month; default 2 */
  minNeighbours?: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * Months whose use stands out from the months around them. Use is compared per day, so a short February
 * or a part-covered month is not flagged for its length. A month is flagged when its daily use is more than
 * 3 times, or less than a third of, the median daily use of the months up to 2 either side that have data
 * (at least 2 of them). The median, not the mean, so one odd neighbour does not hide or fake an outlier;
 * when the median is 0 there is no ratio to judge and the month is not flagged.
 */
export function findOutliers(months: readonly MonthlyUse[], rule: OutlierRule = {}): Outlier[] {
  const factor = rule.factor ?? 3;
  const reach = rule.reach ?? 2;
  const minNeighbours = rule.minNeighbours ?? 2;
  const daily = new Map(months.filter((m) => m.days > 0).map((m) => [m.month, m.quantity / m.days]));
  const outliers: Outlier[] = [];
  for (const [month, dailyUse] of [...daily].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const neighbours: number[] = [];
    for (let k = -reach; k <= reach; k++) {
      if (k === 0) continue;
      const value = daily.get(addMonths(`${month}-01`, k).slice(0, 7));
      if (value !== undefined) neighbours.push(value);
    }
    if (neighbours.length < minNeighbours) continue;
    const neighbourMedian = median(neighbours);
    if (neighbourMedian <= 0) continue;
    const ratio = dailyUse / neighbourMedian;
    if (ratio > factor) outliers.push({ month, dailyUse, neighbourMedian, ratio, direction: 'high' });
    else if (ratio < 1 / factor) outliers.push({ month, dailyUse, neighbourMedian, ratio, direction: 'low' });
  }
  return outliers;
}

/** Billed days summed by calendar month; filled days are left out so estimates cannot mask or fake an outlier. */
export function monthlyBilledUse(days: readonly DailyValue[]): MonthlyUse[] {
  const months = new Map<string, MonthlyUse>();
  for (const day of days) {
    if (day.billId === undefined) continue;
    const month = day.date.slice(0, 7);
    const m = months.get(month) ?? { month, quantity: 0, days: 0 };
    m.quantity += day.quantity;
    m.days += 1;
    months.set(month, m);
  }
  return [...months.values()].sort((a, b) => (a.month < b.month ? -1 : 1));
}

export interface MeterDataQuality {
  window: DateRange;
  /** Share of the window's days covered by a bill, 0 to 1 */
  coverage: number;
  gaps: DateRange[];
  gapDays: number;
  fills: GapFill[];
  /** Gaps with nothing to estimate from */
  unfilled: DateRange[];
  overlaps: BillOverlap[];
  overlapDays: number;
  /** Bills in the window on an estimated read */
  estimatedReadBills: string[];
  /** Days in the window whose figure is estimated (estimated reads and filled gaps) */
  estimatedDays: number;
  outliers: Outlier[];
}

/** A meter's data quality over a window: gaps, overlaps, estimates and outlying months. */
export function meterDataQuality(
  bills: readonly BillRecord[],
  window: DateRange,
  rule: OutlierRule = {},
): MeterDataQuality {
  const timeline = buildMeterTimeline(bills, window);
  const windowDays = daysInclusive(window.start, window.end);
  const gapDays = timeline.gaps.reduce((t, g) => t + daysInclusive(g.start, g.end), 0);
  const inWindow = (b: BillRecord) => b.end >= window.start && b.start <= window.end;
  return {
    window,
    coverage: windowDays === 0 ? 0 : (windowDays - gapDays) / windowDays,
    gaps: timeline.gaps,
    gapDays,
    fills: timeline.fills,
    unfilled: timeline.unfilled,
    overlaps: timeline.overlaps,
    overlapDays: timeline.overlaps.reduce((t, o) => t + o.days, 0),
    estimatedReadBills: bills.filter((b) => b.estimatedRead && inWindow(b)).map((b) => b.id),
    estimatedDays: timeline.days.filter((d) => d.estimated).length,
    outliers: findOutliers(monthlyBilledUse(timeline.days), rule),
  };
}
