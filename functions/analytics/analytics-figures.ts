import {
  type Bucket,
  bucketOf,
  bucketsBetween,
  type CalendarPeriod,
  type DateRange,
  daysInMonth,
  type Granularity,
  marketBased,
  type ScopeSplit,
  ScopeSum,
} from '../../shared/analytics/index.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type {
  EmissionsBasis,
  Totals as TotalsView,
  UtilityFigures as UtilityFiguresView,
} from '../../shared/schemas/responses/analytics.ts';
import type { RollupParts } from '../accounts/index.ts';

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
  /** Electricity supplied under a REGO-backed renewable contract, kWh. */
  regoKwh?: number;
  /** Parts of the bills: VAT (on top of the net cost), and the levy and standing charges inside it. */
  vat?: number;
  ccl?: number;
  standingCharge?: number;
  /** The asset whose figure this is, when the answer breaks figures down by site. */
  assetId?: string;
  /** The figures split by source and by meter user, read when an answer limits or splits by them. */
  split?: RollupParts;
}

const BILL_PARTS = ['regoKwh', 'vat', 'ccl', 'standingCharge'] as const;

/** The bill parts a roll-up or account month holds (absent on figures written before they were kept). */
export function billParts(
  r: Partial<Record<(typeof BILL_PARTS)[number], unknown>>,
): Partial<Pick<MonthFigure, 'regoKwh' | 'vat' | 'ccl' | 'standingCharge'>> {
  const out: Partial<Record<(typeof BILL_PARTS)[number], number>> = {};
  for (const key of BILL_PARTS) {
    const v = Number(r[key]);
    if (Number.isFinite(v) && v !== 0) out[key] = v;
  }
  return out;
}

export type { EmissionsBasis };

/** One utility's figures in an answer, with the parts the server's own breakdowns add. */
export interface UtilityFigures extends UtilityFiguresView {
  /** With detailedSource: the part of these figures each source gives (they add up to the figure). */
  sources?: SourceParts;
  /** With meterUserBreakdown: the part of these figures each meter user takes (they add up to the figure). */
  users?: UserParts;
}

type SourcePart = { consumption: number; cost?: number; emissionsKg: number };
/** Months from bills, from imports, from interval readings, and estimated for gaps. */
export type SourceParts = Record<'bills' | 'imports' | 'readings' | 'estimates', SourcePart>;
/** Meters the landlord uses, tenants use, both use, and meters with no user set. */
export type UserParts = Record<'landlord' | 'tenant' | 'shared' | 'unset', SourcePart>;

/**
 * Gives each utility figure of `into` its parts, one for each of `kinds`, from each part's own totals (a part
 * holding none of the utility counts as zero); a cost part only where the figure has a cost.
 */
export function splitUtilities<K extends string>(
  into: Totals,
  kinds: readonly K[],
  parts: Partial<Record<K, Totals>>,
  set: (figures: UtilityFigures, split: Record<K, SourcePart>) => void,
): void {
  for (const [utility, figures] of Object.entries(into.utilities) as [UtilityType, UtilityFigures][]) {
    const split: Partial<Record<K, SourcePart>> = {};
    for (const kind of kinds) {
      const e = parts[kind]?.utilities[utility];
      split[kind] = {
        consumption: e?.consumption ?? 0,
        ...(figures.cost !== undefined ? { cost: e?.cost ?? 0 } : {}),
        emissionsKg: e?.emissionsKg ?? 0,
      };
    }
    set(figures, split as Record<K, SourcePart>);
  }
}

export type UtilityTable = Partial<Record<UtilityType, UtilityFigures>>;

export interface Totals extends Omit<TotalsView, 'utilities'> {
  utilities: UtilityTable;
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
  vat: number;
  ccl: number;
  standingCharge: number;
  emissionsKg: number;
  marketKg: number;
}

/** A table of sums by utility, with the scope split of all of them. */
interface Table {
  utilities: Map<UtilityType, Sum>;
  scopes: ScopeSum;
}

const newTable = (): Table => ({ utilities: new Map(), scopes: new ScopeSum() });

function addTo(table: Table, f: MonthFigure, fraction: number): void {
  const target = defaultUnit(f.utilityType);
  const sum = table.utilities.get(f.utilityType) ?? {
    consumption: 0,
    unit: target,
    cost: 0,
    vat: 0,
    ccl: 0,
    standingCharge: 0,
    emissionsKg: 0,
    marketKg: 0,
  };
  const converted = convertQuantity(f.consumption, f.unit, target);
  if (converted === undefined) sum.unit = 'mixed';
  else sum.consumption += converted * fraction;
  sum.cost += f.cost * fraction;
  sum.vat += (f.vat ?? 0) * fraction;
  sum.ccl += (f.ccl ?? 0) * fraction;
  sum.standingCharge += (f.standingCharge ?? 0) * fraction;
  sum.emissionsKg += f.emissionsKg * fraction;
  const kwh =
    f.utilityType === 'electricity' || f.utilityType === 'gas'
      ? convertQuantity(f.consumption, f.unit, 'kWh')
      : undefined;
  const input = { ...f, ...(kwh !== undefined ? { kwh } : {}) };
  sum.marketKg +=
    f.utilityType === 'electricity' ? marketBased(input, fraction).kg : f.emissionsKg * fraction;
  table.utilities.set(f.utilityType, sum);
  table.scopes.add(input, fraction);
}

function totalsOf(table: Table, withCosts: boolean, basis: EmissionsBasis): Totals {
  const utilities: UtilityTable = {};
  const money = { cost: 0, vat: 0, ccl: 0, standingCharge: 0 };
  let emissionsKg = 0;
  for (const [utility, s] of [...table.utilities].sort(([a], [b]) => a.localeCompare(b))) {
    const kg = basis === 'market' ? s.marketKg : s.emissionsKg;
    const consumption = s.unit === 'mixed' ? 0 : round(s.consumption, 3);
    utilities[utility] = {
      consumption,
      unit: s.unit,
      ...(withCosts
        ? {
            cost: round(s.cost, 2),
            ...parts(s),
            ...(consumption > 0 ? { unitRate: round(s.cost / consumption, 5) } : {}),
          }
        : {}),
      emissionsKg: round(kg, 3),
    };
    money.cost += s.cost;
    money.vat += s.vat;
    money.ccl += s.ccl;
    money.standingCharge += s.standingCharge;
    emissionsKg += kg;
  }
  return {
    utilities,
    ...(withCosts ? { cost: round(money.cost, 2), ...parts(money) } : {}),
    emissionsKg: round(emissionsKg, 3),
  };
}

/** The VAT, levy and standing charges the bills held (a part no bill held is left out, not given as 0). */
function parts(s: { vat: number; ccl: number; standingCharge: number }) {
  const out: { vat?: number; ccl?: number; standingCharge?: number } = {};
  for (const key of ['vat', 'ccl', 'standingCharge'] as const) {
    const v = round(s[key], 2);
    if (v !== 0) out[key] = v;
  }
  return out;
}

/** Months' shares of buckets by month (see figuresOf). */
export type MonthShares = Map<string, { key: string; fraction: number }[]>;

/** Emissions by GHG Protocol scope over the window and per bucket, each naming its factor sets. */
export interface ScopeFigures {
  totals: ScopeSplit;
  buckets: (ScopeSplit & { key: string })[];
}

export interface Figures {
  buckets: BucketFigures[];
  totals: Totals;
  /** Made from monthly figures; interval figures leave it to them. */
  scopes?: ScopeFigures;
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
  basis: EmissionsBasis = 'location',
  /**
   * Each month's shares of the buckets, kept across calls over the same window, granularity and calendar
   * (an answer's parts): working them out day by day is most of the work.
   */
  shares: MonthShares = new Map(),
): Figures {
  const buckets = bucketsBetween(window.start, window.end, granularity, calendar);
  const byBucket = new Map<string, Table>(buckets.map((b) => [b.key, newTable()]));
  const whole = newTable();
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
    buckets: buckets.map((b) => ({
      ...b,
      ...totalsOf(byBucket.get(b.key) ?? newTable(), withCosts, basis),
    })),
    totals: totalsOf(whole, withCosts, basis),
    scopes: {
      totals: whole.scopes.result(),
      buckets: buckets.map((b) => ({ key: b.key, ...(byBucket.get(b.key) ?? newTable()).scopes.result() })),
    },
    factorVersions: [...versions].sort(),
  };
}

/** The window's totals of figures by asset (figures without an asset are left out). */
export function totalsByAsset(
  rows: readonly MonthFigure[],
  window: DateRange,
  withCosts: boolean,
  basis: EmissionsBasis = 'location',
): Map<string, Totals> {
  const tables = new Map<string, Table>();
  for (const row of rows) {
    if (!row.assetId) continue;
    // The window's share of the month, whatever the calendar: totals do not depend on buckets.
    const fraction = monthShares(row.month, window, 'yearly', 'standard').reduce((n, s) => n + s.fraction, 0);
    if (fraction === 0) continue;
    const table = tables.get(row.assetId) ?? newTable();
    addTo(table, row, fraction);
    tables.set(row.assetId, table);
  }
  return new Map([...tables].map(([id, t]) => [id, totalsOf(t, withCosts, basis)]));
}
