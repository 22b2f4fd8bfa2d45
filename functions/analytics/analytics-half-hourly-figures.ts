import {
  type CalendarPeriod,
  type DateRange,
  eachDay,
  settlementPeriodStarts,
} from '../../shared/analytics/index.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { formError } from '../core/lib/errors.ts';
import { inPool } from '../core/lib/in-pool.ts';
import {
  type BucketFigures,
  type Figures,
  figuresOf,
  type MonthFigure,
  type Totals,
  type UtilityFigures,
} from './analytics-figures.ts';
import { emissionsOf } from './analytics-half-hourly.ts';
import {
  daysInYear,
  type IntervalMeter,
  listIntervalDays,
  listIntervalMeters,
  putSummedYear,
  readDayTotals,
  readSummedYears,
  type SummedYear,
} from './analytics-half-hourly-repository.ts';
import type { IntervalGranularity } from './analytics-params.ts';
import type { ReadScope } from './analytics-scope.ts';
import { stampOf, versionsOf } from './analytics-summed-years.ts';

/** Parallel partition reads of interval days: enough to hide latency without flooding the table. */
const READ_CONCURRENCY = 8;

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * The meters with interval data whose figures a scope counts: for a meter scope the meter itself; else
 * the main meters (a sub-meter's data is inside its parent's) on the scope's sites, or of the whole
 * company, and the meters granted one by one.
 */
export async function intervalMetersOf(companyId: string, scope: ReadScope): Promise<IntervalMeter[]> {
  const all = await listIntervalMeters(companyId);
  const meters = new Set(scope.meters.map((m) => m._id));
  if (scope.kind === 'meter') return all.filter((m) => meters.has(m.accountId));
  const sites = new Set(scope.sites.map((s) => s._id));
  return all.filter(
    (m) =>
      meters.has(m.accountId) || (m.assetId !== undefined && (scope.wholeCompany || sites.has(m.assetId))),
  );
}

interface Sum {
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
}

/** Adds a meter's value, converted to the utility's default unit, to a bucket's table. */
function add(
  table: Map<UtilityType, Sum>,
  utility: UtilityType,
  unit: string,
  value: number,
  perUnit: number,
) {
  const target = defaultUnit(utility);
  const sum = table.get(utility) ?? { consumption: 0, unit: target, cost: 0, emissionsKg: 0 };
  const converted = convertQuantity(value, unit, target);
  if (converted === undefined) sum.unit = 'mixed';
  else sum.consumption += converted;
  sum.emissionsKg += value * perUnit;
  table.set(utility, sum);
}

function tableOf(totals: Totals): Map<UtilityType, Sum> {
  const table = new Map<UtilityType, Sum>();
  for (const [utility, f] of Object.entries(totals.utilities) as [UtilityType, UtilityFigures][]) {
    table.set(utility, {
      consumption: f.consumption,
      unit: f.unit,
      cost: f.cost ?? 0,
      emissionsKg: f.emissionsKg,
    });
  }
  return table;
}

function totalsOf(table: Map<UtilityType, Sum>, withCosts: boolean): Totals {
  const utilities: Totals['utilities'] = {};
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

const yearsOf = (window: DateRange) => {
  const years: string[] = [];
  for (let y = Number(window.start.slice(0, 4)); y <= Number(window.end.slice(0, 4)); y++)
    years.push(String(y));
  return years;
};

/** Each day of a year by day of the year: its date and its month, made once per answer. */
function yearCalendars() {
  const cache = new Map<string, { dates: string[]; months: string[] }>();
  return (year: string) => {
    let found = cache.get(year);
    if (!found) {
      const dates = eachDay(`${year}-01-01`, `${year}-12-31`);
      const monthNames = new Map<string, string>();
      // One string per month, so telling a day's month from the one before compares the same object.
      const months = dates.map((date) => {
        const month = date.slice(0, 7);
        const name = monthNames.get(month) ?? month;
        monthNames.set(month, name);
        return name;
      });
      found = { dates, months };
      cache.set(year, found);
    }
    return found;
  };
}

/** Emissions per unit by utility, unit and year, worked out once per answer. */
function factorCache() {
  const cache = new Map<string, { perUnit: number; factorVersion: string }>();
  return (utility: UtilityType, unit: string, year: string) => {
    const key = `${utility}#${unit}#${year}`;
    let found = cache.get(key);
    if (!found) {
      found = emissionsOf(utility, Number(year), unit);
      cache.set(key, found);
    }
    return found;
  };
}

type MeterKind = Pick<IntervalMeter, 'utilityType' | 'unit'>;

/**
 * The meters' day totals summed by utility, unit and year: figures are worked out from the sums, so they
 * are the same whether the sums are read or made. For the whole company (all its main meters of each
 * utility) the sums are kept, and read back while their stamp matches the meters' current versions: one
 * item per year and utility instead of one per meter. Sums are made from the meters' own totals when
 * none is kept, or a meter has been written since, and kept only if no meter changed while they were made.
 */
async function summedDayTotals(
  companyId: string,
  meters: readonly IntervalMeter[],
  years: readonly string[],
  wholeCompany: boolean,
): Promise<{ meter: MeterKind; year: string; totals: Float64Array }[]> {
  const byKind = new Map<string, IntervalMeter[]>();
  for (const m of meters) {
    const key = `${m.utilityType}#${m.unit}`;
    byKind.set(key, [...(byKind.get(key) ?? []), m]);
  }
  const wanted = years.flatMap((year) =>
    [...byKind.values()].map((of) => {
      const first = of[0] as IntervalMeter;
      const held = wholeCompany ? versionsOf(of, year) : undefined;
      return {
        year,
        utilityType: first.utilityType,
        unit: first.unit,
        meters: of,
        stamp: held?.stamp,
        versions: held?.versions,
      };
    }),
  );
  const kept = wholeCompany
    ? await readSummedYears(
        companyId,
        wanted.filter((w) => w.stamp !== undefined),
      )
    : new Map<string, SummedYear>();
  const out: { meter: MeterKind; year: string; totals: Float64Array }[] = [];
  const toMake: typeof wanted = [];
  for (const w of wanted) {
    const found = kept.get(`${w.year}#${w.utilityType}#${w.unit}`);
    if (found && w.stamp !== undefined && found.stamp === w.stamp)
      out.push({ meter: w, year: w.year, totals: found.totals });
    else toMake.push(w);
  }
  if (toMake.length === 0) return out;
  const ids = [...new Set(toMake.flatMap((w) => w.meters.map((m) => m.accountId)))];
  const totalsByMeter = await readDayTotals(companyId, ids, [...new Set(toMake.map((w) => w.year))]);
  const made: {
    y: SummedYear;
    versions: ReadonlyMap<string, number>;
    items: ReadonlyMap<string, number>;
  }[] = [];
  for (const w of toMake) {
    const totals = new Float64Array(daysInYear(w.year)).fill(Number.NaN);
    const items = new Map<string, number>();
    for (const m of w.meters) {
      const found = totalsByMeter.get(m.accountId)?.find((y) => y.year === w.year);
      items.set(m.accountId, found?.version ?? 0);
      const own = found?.totals;
      if (!own) continue;
      for (let d = 0; d < totals.length; d++) {
        const v = own[d] as number;
        if (Number.isNaN(v)) continue;
        const sum = totals[d] as number;
        totals[d] = Number.isNaN(sum) ? v : sum + v;
      }
    }
    out.push({ meter: w, year: w.year, totals });
    if (w.stamp !== undefined && w.versions)
      made.push({
        y: { year: w.year, utilityType: w.utilityType, unit: w.unit, stamp: w.stamp, totals },
        versions: w.versions,
        items,
      });
  }
  if (made.length > 0) {
    // Kept only if every meter's version is still the one the sums were read under.
    const now = await listIntervalMeters(companyId);
    await Promise.all(
      made.map(async ({ y, versions, items }) => {
        const again = now.filter(
          (m) => m.assetId !== undefined && m.utilityType === y.utilityType && m.unit === y.unit,
        );
        if (stampOf(again, y.year) === y.stamp) await putSummedYear(companyId, y, versions, items);
      }),
    );
  }
  return out.sort((a, b) => a.year.localeCompare(b.year));
}

/**
 * Daily figures of a scope whose meters include some with interval data: those meters' days are exact,
 * from their daily totals; everything else (other meters, and costs, which interval data does not carry)
 * is the monthly figures spread over their days as before. The interval meters' months are in the
 * monthly figures too (every interval write updates them), so their share is taken out of the months
 * before they are spread, and each month still sums to its roll-up.
 */
export async function dailyWithIntervalData(
  companyId: string,
  meters: readonly IntervalMeter[],
  rows: readonly MonthFigure[],
  window: DateRange,
  calendar: CalendarPeriod,
  withCosts: boolean,
  wholeCompany = false,
): Promise<Figures> {
  const groups = await summedDayTotals(
    companyId,
    meters,
    yearsOf({ start: `${window.start.slice(0, 7)}-01`, end: window.end }),
    wholeCompany,
  );
  const factor = factorCache();
  const calendarOf = yearCalendars();
  // What the interval meters take out of the months, summed over the meters by month, utility and unit:
  // spreading a month over its days is the costly part of the answer, so it is done once per month and
  // utility rather than once per meter (500 meters' year spread meter by meter took seconds).
  const monthsOut = new Map<string, MonthFigure>();
  const firstMonth = window.start.slice(0, 7);
  const lastMonth = window.end.slice(0, 7);
  const takeOut = (meter: MeterKind, month: string, total: number) => {
    if (month < firstMonth || month > lastMonth) return;
    const { perUnit } = factor(meter.utilityType, meter.unit, month.slice(0, 4));
    const key = `${month}#${meter.utilityType}#${meter.unit}`;
    const out = monthsOut.get(key) ?? {
      month,
      utilityType: meter.utilityType,
      consumption: 0,
      unit: meter.unit,
      cost: 0,
      emissionsKg: 0,
    };
    out.consumption -= total;
    out.emissionsKg -= total * perUnit;
    monthsOut.set(key, out);
  };
  for (const { meter, year, totals } of groups) {
    const { months } = calendarOf(year);
    let month: string | undefined;
    let sum = 0;
    for (let d = 0; d < totals.length; d++) {
      const total = totals[d] as number;
      if (Number.isNaN(total)) continue;
      const of = months[d] as string;
      if (of !== month) {
        if (month !== undefined) takeOut(meter, month, sum);
        month = of;
        sum = 0;
      }
      sum += total;
    }
    if (month !== undefined) takeOut(meter, month, sum);
  }
  const spread = figuresOf([...rows, ...monthsOut.values()], window, 'daily', calendar, withCosts);
  const tables = new Map(spread.buckets.map((b) => [b.key, tableOf(b)]));
  // Every day of every summed year: each day's table and utility sum is found once per year and utility,
  // and the unit's scale and the year's factor once per sum.
  const slots = new Map<
    string,
    { tables: (Map<UtilityType, Sum> | undefined)[]; sums: (Sum | undefined)[] }
  >();
  const slotsOf = (year: string, utility: UtilityType) => {
    const key = `${year}#${utility}`;
    let found = slots.get(key);
    if (!found) {
      const { dates } = calendarOf(year);
      found = { tables: dates.map((date) => tables.get(date)), sums: new Array(dates.length) };
      slots.set(key, found);
    }
    return found;
  };
  for (const { meter, year, totals } of groups) {
    const target = defaultUnit(meter.utilityType);
    const scale = convertQuantity(1, meter.unit, target);
    const { perUnit } = factor(meter.utilityType, meter.unit, year);
    const of = slotsOf(year, meter.utilityType);
    for (let d = 0; d < totals.length; d++) {
      const total = totals[d] as number;
      if (Number.isNaN(total)) continue;
      let sum = of.sums[d];
      if (!sum) {
        const table = of.tables[d];
        if (!table) continue;
        sum = table.get(meter.utilityType);
        if (!sum) {
          sum = { consumption: 0, unit: target, cost: 0, emissionsKg: 0 };
          table.set(meter.utilityType, sum);
        }
        of.sums[d] = sum;
      }
      if (scale === undefined) sum.unit = 'mixed';
      else sum.consumption += total * scale;
      sum.emissionsKg += total * perUnit;
    }
  }
  const whole = new Map<UtilityType, Sum>();
  const buckets: BucketFigures[] = spread.buckets.map((b) => {
    const table = tables.get(b.key) ?? new Map<UtilityType, Sum>();
    for (const [utility, s] of table) {
      const into = whole.get(utility) ?? { consumption: 0, unit: s.unit, cost: 0, emissionsKg: 0 };
      if (s.unit !== into.unit) into.unit = 'mixed';
      into.consumption += s.consumption;
      into.cost += s.cost;
      into.emissionsKg += s.emissionsKg;
      whole.set(utility, into);
    }
    const { key, label, start, end } = b;
    return { key, label, start, end, ...totalsOf(table, withCosts) };
  });
  return { buckets, totals: totalsOf(whole, withCosts), factorVersions: spread.factorVersions };
}

export interface IntervalBucket extends BucketFigures {
  /** The start of the half hour or hour in UTC. */
  utcStart: string;
}

/**
 * Half-hourly or hourly figures of the meters with interval data, every period of the window listed (an
 * empty one with no utilities). Periods are keyed by their start in London time with its offset, so the
 * two 01:00s of the day clocks go back are two buckets. Interval data carries no cost.
 */
export async function intervalFigures(
  companyId: string,
  meters: readonly IntervalMeter[],
  window: DateRange,
  granularity: IntervalGranularity,
): Promise<{ buckets: IntervalBucket[]; totals: Totals; factorVersions: string[] }> {
  if (meters.length === 0) {
    throw formError({
      granularity:
        'Half-hourly and hourly figures need interval data, and there is none here: choose daily or coarser',
    });
  }
  const step = granularity === 'hourly' ? 2 : 1;
  const slots = new Map<
    string,
    { bucket: Omit<IntervalBucket, keyof Totals>; table: Map<UtilityType, Sum> }
  >();
  const order: string[] = [];
  const indexOf = new Map<string, string[]>();
  for (const date of eachDay(window.start, window.end)) {
    const starts = settlementPeriodStarts(date);
    const keysOfDay: string[] = [];
    for (let i = 0; i < starts.length; i += step) {
      const s = starts[i] as { utcStart: string; localStart: string };
      slots.set(s.localStart, {
        bucket: {
          key: s.localStart,
          label: s.localStart.slice(11, 16),
          start: date,
          end: date,
          utcStart: s.utcStart,
        },
        table: new Map(),
      });
      order.push(s.localStart);
      keysOfDay.push(s.localStart);
    }
    indexOf.set(date, keysOfDay);
  }
  const factor = factorCache();
  const versions = new Set<string>();
  const whole = new Map<UtilityType, Sum>();
  const days = await inPool(meters, READ_CONCURRENCY, async (meter) => ({
    meter,
    days: await listIntervalDays(companyId, meter.accountId, window.start, window.end),
  }));
  for (const { meter, days: list } of days) {
    for (const day of list) {
      const keysOfDay = indexOf.get(day.date) ?? [];
      const f = factor(meter.utilityType, day.unit, day.date.slice(0, 4));
      if (f.factorVersion !== 'none') versions.add(f.factorVersion);
      day.values.forEach((v, i) => {
        if (v === null) return;
        const slot = slots.get(keysOfDay[Math.floor(i / step)] ?? '');
        if (!slot) return;
        add(slot.table, meter.utilityType, day.unit, v, f.perUnit);
        add(whole, meter.utilityType, day.unit, v, f.perUnit);
      });
    }
  }
  return {
    buckets: order.map((key) => {
      const slot = slots.get(key) as {
        bucket: Omit<IntervalBucket, keyof Totals>;
        table: Map<UtilityType, Sum>;
      };
      return { ...slot.bucket, ...totalsOf(slot.table, false) };
    }),
    totals: totalsOf(whole, false),
    factorVersions: [...versions].sort(),
  };
}

export interface IntervalAnswer {
  figures: Figures;
  /** Meters whose interval data the figures hold. */
  intervalMeters: number;
  costsIncluded: boolean;
}

/**
 * The figures at a granularity interval data serves: half-hourly and hourly from it alone, daily from it
 * where the scope has some (else undefined: daily figures come from the months, as every coarser one).
 */
export async function intervalAnswer(
  companyId: string,
  scope: ReadScope,
  rows: readonly MonthFigure[],
  window: DateRange,
  ask: { granularity: string; accountType?: readonly UtilityType[] },
  calendar: CalendarPeriod,
  withCosts: boolean,
): Promise<IntervalAnswer | undefined> {
  const { granularity } = ask;
  if (granularity !== 'daily' && granularity !== 'hourly' && granularity !== 'halfhourly') return undefined;
  const meters = (await intervalMetersOf(companyId, scope)).filter(
    (m) => !ask.accountType || ask.accountType.includes(m.utilityType),
  );
  if (granularity === 'daily') {
    if (meters.length === 0) return undefined;
    const figures = await dailyWithIntervalData(
      companyId,
      meters,
      rows,
      window,
      calendar,
      withCosts,
      scope.wholeCompany,
    );
    return { figures, intervalMeters: meters.length, costsIncluded: withCosts };
  }
  const figures = await intervalFigures(companyId, meters, window, granularity);
  return { figures, intervalMeters: meters.length, costsIncluded: false };
}
