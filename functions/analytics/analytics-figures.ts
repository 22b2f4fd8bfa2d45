import {
  type Bucket,
  bucketOf,
  bucketsBetween,
  type CalendarPeriod,
  type DateRange,
  daysInMonth,
  type Granularity,
} from '../../shared/analytics/index.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';

/** One month of one utility from a roll-up or an account's own months, whichever the scope reads. */
export interface MonthFigure {
  /** YYYY-MM */
  month: string;
  utilityType: UtilityType;
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
  factorVersion?: string;
  /** The asset whose figure this is, when the answer breaks figures down by site. */
  assetId?: string;
}

export interface UtilityFigures {
  consumption: number;
  /** The utility's default unit; 'mixed' when some figure could not be converted to it. */
  unit: string;
  cost?: number;
  emissionsKg: number;
  /** With estimateBreakdown: the part of these figures from estimated months rather than bills. */
  estimated?: { consumption: number; cost?: number; emissionsKg: number };
}

export type UtilityTable = Partial<Record<UtilityType, UtilityFigures>>;

export interface Totals {
  utilities: UtilityTable;
  /** Summed over utilities; consumption is not, as units differ. */
  cost?: number;
  emissionsKg: number;
}

export interface BucketFigures extends Bucket, Totals {}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** The first and last month (YYYY-MM) a window touches, for the key range of the monthly partitions. */
export function monthsOf(window: DateRange): { from: string; to: string } {
  return { from: window.start.slice(0, 7), to: window.end.slice(0, 7) };
}

/**
 * Days of a month inside the window, by bucket. Monthly figures are spread evenly over their days, so a
 * financial calendar whose periods cut across months, or a window starting mid-month, takes its share by
 * days; a month lying whole in one bucket keeps its figure exactly (its fraction is n/n).
 */
function monthShares(
  month: string,
  window: DateRange,
  granularity: Granularity,
  calendar: CalendarPeriod,
): { key: string; fraction: number }[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = daysInMonth(y, m);
  const days = new Map<string, number>();
  for (let d = 1; d <= n; d++) {
    const date = `${month}-${String(d).padStart(2, '0')}`;
    if (date < window.start || date > window.end) continue;
    const key = bucketOf(date, granularity, calendar).key;
    days.set(key, (days.get(key) ?? 0) + 1);
  }
  return [...days].map(([key, count]) => ({ key, fraction: count / n }));
}

interface Sum {
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
}

function addTo(table: Map<UtilityType, Sum>, f: MonthFigure, fraction: number): void {
  const target = defaultUnit(f.utilityType);
  const sum = table.get(f.utilityType) ?? { consumption: 0, unit: target, cost: 0, emissionsKg: 0 };
  const converted = convertQuantity(f.consumption, f.unit, target);
  if (converted === undefined) sum.unit = 'mixed';
  else sum.consumption += converted * fraction;
  sum.cost += f.cost * fraction;
  sum.emissionsKg += f.emissionsKg * fraction;
  table.set(f.utilityType, sum);
}

function totalsOf(table: Map<UtilityType, Sum>, withCosts: boolean): Totals {
  const utilities: UtilityTable = {};
  let cost = 0;
  let emissionsKg = 0;
  for (const [utility, s] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
    utilities[utility] = {
      consumption: s.unit === 'mixed' ? 0 : round(s.consumption, 3),
      unit: s.unit,
      ...(withCosts ? { cost: round(s.cost, 2) } : {}),
      emissionsKg: round(s.emissionsKg, 3),
    };
    cost += s.cost;
    emissionsKg += s.emissionsKg;
  }
  return { utilities, ...(withCosts ? { cost: round(cost, 2) } : {}), emissionsKg: round(emissionsKg, 3) };
}

export interface Figures {
  buckets: BucketFigures[];
  totals: Totals;
  factorVersions: string[];
}

/**
 * Monthly figures bucketed by granularity under the company's calendar, per utility, with the window's
 * totals. Every bucket meeting the window is listed, an empty one with no utilities, so a chart shows its
 * gaps. Without costs no cost figure is made at all.
 */
export function figuresOf(
  rows: readonly MonthFigure[],
  window: DateRange,
  granularity: Granularity,
  calendar: CalendarPeriod,
  withCosts: boolean,
): Figures {
  const buckets = bucketsBetween(window.start, window.end, granularity, calendar);
  const byBucket = new Map<string, Map<UtilityType, Sum>>(buckets.map((b) => [b.key, new Map()]));
  const whole = new Map<UtilityType, Sum>();
  const shares = new Map<string, { key: string; fraction: number }[]>();
  const versions = new Set<string>();
  for (const row of rows) {
    let split = shares.get(row.month);
    if (!split) {
      split = monthShares(row.month, window, granularity, calendar);
      shares.set(row.month, split);
    }
    if (split.length === 0) continue;
    if (row.factorVersion) versions.add(row.factorVersion);
    for (const { key, fraction } of split) {
      const table = byBucket.get(key);
      if (table) addTo(table, row, fraction);
      addTo(whole, row, fraction);
    }
  }
  return {
    buckets: buckets.map((b) => ({ ...b, ...totalsOf(byBucket.get(b.key) ?? new Map(), withCosts) })),
    totals: totalsOf(whole, withCosts),
    factorVersions: [...versions].sort(),
  };
}

/** The window's totals of figures by asset (figures without an asset are left out). */
export function totalsByAsset(
  rows: readonly MonthFigure[],
  window: DateRange,
  withCosts: boolean,
): Map<string, Totals> {
  const tables = new Map<string, Map<UtilityType, Sum>>();
  for (const row of rows) {
    if (!row.assetId) continue;
    // The window's share of the month, whatever the calendar: totals do not depend on buckets.
    const fraction = monthShares(row.month, window, 'yearly', 'standard').reduce((n, s) => n + s.fraction, 0);
    if (fraction === 0) continue;
    const table = tables.get(row.assetId) ?? new Map<UtilityType, Sum>();
    addTo(table, row, fraction);
    tables.set(row.assetId, table);
  }
  return new Map([...tables].map(([id, t]) => [id, totalsOf(t, withCosts)]));
}
