import type { UtilityType } from '../../../shared/schemas/common.ts';
import type { Series } from '../../components/charts/shape-series.ts';
import type { BucketFigures, ScopeSplit, SiteTotals, Totals, UtilityFigures } from './analytics-answer.ts';
import type { Measure } from './insights-filters.ts';

export const UTILITY_LABELS: Readonly<Record<UtilityType, string>> = {
  electricity: 'Electricity',
  gas: 'Gas',
  water: 'Water',
  waste: 'Waste',
  heating: 'Heating',
  cooling: 'Cooling',
  solar: 'Solar',
};
const UTILITY_ORDER = Object.keys(UTILITY_LABELS) as UtilityType[];

/**
 * The GHG Protocol scope each utility's emissions mainly fall in: fuel burnt on site is scope 1, bought
 * electricity, heat and cooling scope 2, water and waste scope 3.
 */
export const SCOPE_OF: Readonly<Record<UtilityType, 1 | 2 | 3>> = {
  gas: 1,
  electricity: 2,
  heating: 2,
  cooling: 2,
  solar: 2,
  water: 3,
  waste: 3,
};

/** A figure's change against the comparison period; the percentage is null when there was nothing before. */
export interface Change {
  direction: 'up' | 'down' | 'flat';
  percent: number | null;
}

export function changeOf(current: number, previous: number | undefined): Change | undefined {
  if (previous === undefined) return undefined;
  const delta = current - previous;
  const direction = Math.abs(delta) < 1e-9 ? 'flat' : delta > 0 ? 'up' : 'down';
  if (previous === 0) return { direction, percent: direction === 'flat' ? 0 : null };
  return { direction, percent: Math.round((delta / Math.abs(previous)) * 1000) / 10 };
}

/** '▲ 12.5%', '▼ 3%', 'no change', or '▲ new' when there was nothing to compare with. */
export function changeText(change: Change): string {
  if (change.direction === 'flat') return 'no change';
  const arrow = change.direction === 'up' ? '▲' : '▼';
  if (change.percent === null) return `${arrow} new`;
  return `${arrow} ${Math.abs(change.percent).toLocaleString('en-GB', { maximumFractionDigits: 1 })}%`;
}

/**
 * The part of a utility's figures a measure counts. Consumption is summed only where units agree, so
 * without a chosen utility only energy (kWh) is added up; water and waste keep their own units.
 */
function partOf(
  measure: Measure,
  f: UtilityFigures,
  chosen: UtilityType | undefined,
): { value: number; estimated: number } | undefined {
  if (measure === 'emissions') return { value: f.emissionsKg, estimated: f.estimated?.emissionsKg ?? 0 };
  if (measure === 'costs') {
    if (f.cost === undefined) return undefined;
    return { value: f.cost, estimated: f.estimated?.cost ?? 0 };
  }
  if (!chosen && f.unit !== 'kWh') return undefined;
  return { value: f.consumption, estimated: f.estimated?.consumption ?? 0 };
}

const utilitiesOf = (totals: Totals) =>
  UTILITY_ORDER.flatMap((u) => {
    const f = totals.utilities[u];
    return f ? [[u, f] as const] : [];
  });

/** A measure summed over a total's utilities, and the estimated part of it. */
export function measureOf(
  measure: Measure,
  totals: Totals,
  chosen?: UtilityType,
): { value: number; estimated: number } {
  let value = 0;
  let estimated = 0;
  for (const [, f] of utilitiesOf(totals)) {
    const part = partOf(measure, f, chosen);
    if (!part) continue;
    value += part.value;
    estimated += part.estimated;
  }
  return { value, estimated };
}

/** The unit a measure is charted and tabled in. */
export function measureUnit(measure: Measure, chosen: UtilityType | undefined, totals?: Totals): string {
  if (measure === 'emissions') return 'kg CO₂e';
  if (measure === 'costs') return '£';
  if (!chosen) return 'kWh';
  return totals?.utilities[chosen]?.unit ?? 'kWh';
}

/** One total card: a figure, what it is in, and the comparison period's figure when there is one. */
export interface TotalCard {
  key: string;
  label: string;
  value: number;
  unit: string;
  previous?: number;
  /** The part of the figure that is estimated. */
  estimated: number;
}

const SCOPE_LABELS = {
  1: 'Scope 1 (gas and fuels)',
  2: 'Scope 2 (electricity, heat, cooling)',
  3: 'Scope 3 (water, waste)',
} as const;

/** The service's split of emissions by scope, now and in the comparison period, and the scope 2 basis. */
export interface ScopeCardsInput {
  basis: 'location' | 'market';
  now?: ScopeSplit;
  previous?: ScopeSplit;
}

const SERVER_SCOPE_LABELS = {
  scope1: 'Scope 1 (gas and fuels)',
  scope2: 'Scope 2 (electricity, heat, cooling)',
  scope3: 'Scope 3 (T&D losses, well-to-tank, water, waste)',
} as const;

/** The emissions cards from the service's scope split: the total, then scopes 1, 2 (by the basis) and 3. */
function scopeCards(scopes: ScopeCardsInput & { now: ScopeSplit }): TotalCard[] {
  const market = scopes.basis === 'market';
  const pick: Record<string, (s: ScopeSplit) => number> = {
    total: (s) => (market ? s.totalMarket : s.totalLocation),
    scope1: (s) => s.scope1,
    scope2: (s) => (market ? s.scope2Market : s.scope2Location),
    scope3: (s) => s.scope3,
  };
  const label = (key: string) =>
    key === 'total'
      ? 'Total emissions'
      : key === 'scope2'
        ? `${SERVER_SCOPE_LABELS.scope2}, ${market ? 'market' : 'location'}-based`
        : SERVER_SCOPE_LABELS[key as 'scope1' | 'scope3'];
  return Object.entries(pick)
    .filter(([key, at]) => key === 'total' || at(scopes.now) !== 0)
    .map(([key, at]) => ({
      key: key === 'total' ? 'total' : `scope-${key.slice(-1)}`,
      label: label(key),
      unit: 'kg CO₂e',
      value: at(scopes.now),
      estimated: 0,
      ...(scopes.previous ? { previous: at(scopes.previous) } : {}),
    }));
}

const COST_PARTS = [
  ['vat', 'VAT'],
  ['ccl', 'Climate Change Levy'],
  ['standingCharge', 'Standing charges'],
] as const;

/** The cards of a page: the measure's total, then its parts by scope (emissions) or by utility. */
export function totalCards(
  measure: Measure,
  totals: Totals,
  previous: Totals | undefined,
  chosen?: UtilityType,
  scopes?: ScopeCardsInput,
): TotalCard[] {
  const card = (
    key: string,
    label: string,
    unit: string,
    pick: (t: Totals) => { value: number; estimated: number },
  ) => {
    const now = pick(totals);
    return {
      key,
      label,
      unit,
      value: now.value,
      estimated: now.estimated,
      ...(previous ? { previous: pick(previous).value } : {}),
    };
  };
  const present = utilitiesOf(totals).map(([u]) => u);
  if (measure === 'emissions' && scopes?.now && !chosen) return scopeCards({ ...scopes, now: scopes.now });
  if (measure === 'emissions') {
    const scopes = ([1, 2, 3] as const).filter((s) => present.some((u) => SCOPE_OF[u] === s));
    const inScope = (scope: 1 | 2 | 3) => (t: Totals) =>
      measureOf('emissions', { ...t, utilities: pickUtilities(t, (u) => SCOPE_OF[u] === scope) });
    return [
      card('total', 'Total emissions', 'kg CO₂e', (t) => measureOf('emissions', t)),
      ...scopes.map((s) => card(`scope-${s}`, SCOPE_LABELS[s], 'kg CO₂e', inScope(s))),
    ];
  }
  const one = (u: UtilityType) => (t: Totals) => {
    const f = t.utilities[u];
    return (f && partOf(measure, f, u)) ?? { value: 0, estimated: 0 };
  };
  if (measure === 'costs') {
    // VAT, the levy and standing charges, where the bills held them: the levy and standing are within the net.
    const parts = COST_PARTS.filter(([key]) => totals[key] !== undefined).map(([key, label]) =>
      card(key, label, '£', (t) => ({ value: t[key] ?? 0, estimated: 0 })),
    );
    return [
      card('total', 'Net cost', '£', (t) => measureOf('costs', t)),
      ...parts,
      ...present.map((u) => card(u, `${UTILITY_LABELS[u]} cost`, '£', one(u))),
    ];
  }
  const cards = present.map((u) => card(u, UTILITY_LABELS[u], totals.utilities[u]?.unit ?? '', one(u)));
  if (chosen) return cards;
  return [card('total', 'Energy', 'kWh', (t) => measureOf('consumption', t)), ...cards];
}

function pickUtilities(t: Totals, keep: (u: UtilityType) => boolean): Totals['utilities'] {
  return Object.fromEntries(utilitiesOf(t).filter(([u]) => keep(u)));
}

/** Emissions read in kg below a tonne and in tonnes above; other figures in their own unit. */
export function figureText(value: number, unit: string): string {
  if (unit === 'kg CO₂e') {
    if (Math.abs(value) >= 1000) return `${fmt(value / 1000, 2)} t CO₂e`;
    return `${fmt(value, 1)} kg CO₂e`;
  }
  if (unit === '£') return `£${fmt(value, 2, 2)}`;
  return `${fmt(value, 0)} ${unit}`;
}

const fmt = (v: number, max: number, min = 0) =>
  v.toLocaleString('en-GB', { maximumFractionDigits: max, minimumFractionDigits: min });

/** A chart series; `estimatedOf` names the series whose estimated part it is, drawn hatched in its colour. */
export interface ChartSeries extends Series {
  estimatedOf?: string;
}

const ESTIMATED = ' (estimated)';

/** Series of billed and estimated parts per group, leaving out estimated series that are all zero. */
function splitSeries(
  xs: readonly string[],
  groups: readonly { name: string; at: (x: number) => { value: number; estimated: number } | undefined }[],
): ChartSeries[] {
  const out: ChartSeries[] = [];
  for (const g of groups) {
    const parts = xs.map((_, i) => g.at(i));
    out.push({
      name: g.name,
      points: xs.map((x, i) => ({
        x,
        y: round(Math.max(0, (parts[i]?.value ?? 0) - (parts[i]?.estimated ?? 0))),
      })),
    });
    if (parts.some((p) => (p?.estimated ?? 0) > 0)) {
      out.push({
        name: `${g.name}${ESTIMATED}`,
        estimatedOf: g.name,
        points: xs.map((x, i) => ({ x, y: round(parts[i]?.estimated ?? 0) })),
      });
    }
  }
  return out;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The stacked series by utility: each utility's billed part, then its estimated part. */
export function seriesByUtility(
  measure: Measure,
  buckets: readonly BucketFigures[],
  chosen?: UtilityType,
): ChartSeries[] {
  const xs = buckets.map((b) => b.label);
  const present = UTILITY_ORDER.filter((u) =>
    buckets.some((b) => {
      const f = b.utilities[u];
      return f !== undefined && partOf(measure, f, chosen) !== undefined;
    }),
  );
  return splitSeries(
    xs,
    present.map((u) => ({
      name: UTILITY_LABELS[u],
      at: (i: number) => {
        const f = buckets[i]?.utilities[u];
        return f && partOf(measure, f, chosen);
      },
    })),
  );
}

/** One site's figures per period, as asked site by site. */
export interface SiteBuckets {
  assetId: string;
  name: string;
  buckets: readonly BucketFigures[];
}

export const OTHER_SITES = 'Other sites';

/**
 * The stacked series by site: each of the given sites, then what the rest of the scope adds up to per
 * period (the scope's figure less the sites shown), so the stack still reaches the scope's total.
 */
export function seriesBySite(
  measure: Measure,
  scope: readonly BucketFigures[],
  sites: readonly SiteBuckets[],
  chosen?: UtilityType,
): ChartSeries[] {
  const xs = scope.map((b) => b.label);
  const keyAt = scope.map((b) => b.key);
  const siteAt = (s: SiteBuckets) => {
    const byKey = new Map(s.buckets.map((b) => [b.key, b]));
    return (i: number) => {
      const b = byKey.get(keyAt[i] ?? '');
      return b && measureOf(measure, b, chosen);
    };
  };
  const groups = sites.map((s) => ({ name: s.name, at: siteAt(s) }));
  const rest = (i: number) => {
    const whole = scope[i] ? measureOf(measure, scope[i], chosen) : { value: 0, estimated: 0 };
    let value = whole.value;
    let estimated = whole.estimated;
    for (const g of groups) {
      const part = g.at(i);
      value -= part?.value ?? 0;
      estimated -= part?.estimated ?? 0;
    }
    // Rounding in each answer can leave crumbs of a unit: they are not another site.
    return { value: value > 0.01 ? value : 0, estimated: estimated > 0.01 ? estimated : 0 };
  };
  const series = splitSeries(xs, [...groups, { name: OTHER_SITES, at: rest }]);
  return series.filter((s) => s.name !== OTHER_SITES || s.points.some((p) => (p.y ?? 0) > 0));
}

/** A row of the top-sites table. */
export interface SiteRow {
  assetId: string;
  siteName: string;
  value: number;
  estimated: number;
  /** The site's share of the scope's figure, in per cent. */
  share: number;
  utilities: Partial<Record<UtilityType, number>>;
}

/** Sites with their figure of the measure, largest first. */
export function siteRows(measure: Measure, assets: readonly SiteTotals[], chosen?: UtilityType): SiteRow[] {
  const rows = assets.map((a) => {
    const m = measureOf(measure, a.totals, chosen);
    const utilities: SiteRow['utilities'] = {};
    for (const [u, f] of utilitiesOf(a.totals)) {
      const part = partOf(measure, f, chosen);
      if (part) utilities[u] = round(part.value);
    }
    return {
      assetId: a._id,
      siteName: a.siteName ?? a._id,
      value: round(m.value),
      estimated: round(m.estimated),
      utilities,
    };
  });
  const total = rows.reduce((n, r) => n + r.value, 0);
  return rows
    .map((r) => ({ ...r, share: total > 0 ? Math.round((r.value / total) * 1000) / 10 : 0 }))
    .sort((a, b) => b.value - a.value || a.siteName.localeCompare(b.siteName));
}

/** The utilities any row has a figure for, in the usual order: the table's columns. */
export function rowUtilities(rows: readonly SiteRow[]): UtilityType[] {
  return UTILITY_ORDER.filter((u) => rows.some((r) => r.utilities[u] !== undefined));
}

/** What a bar click drills into: the site or utility of its series, and its period. */
export interface BarDrill {
  assetId?: string;
  /** YYYY-MM, when the bar is one month. */
  month?: string;
  utilityType?: UtilityType;
  /** The bar's period, which narrows the drill-down's window. */
  from?: string;
  to?: string;
}

export function drillOfBar(
  click: { series: string; x: string },
  view: {
    buckets: readonly BucketFigures[];
    breakdown: 'utility' | 'site';
    granularity: string;
    utility?: UtilityType;
    sites: readonly Pick<SiteRow, 'assetId' | 'siteName'>[];
  },
): BarDrill {
  const bucket = view.buckets.find((b) => b.label === click.x);
  const utilityType =
    view.breakdown === 'utility'
      ? UTILITY_ORDER.find((u) => UTILITY_LABELS[u] === click.series)
      : view.utility;
  // "Other sites" names no site: the drill-down keeps the whole scope.
  const site = view.breakdown === 'site' ? view.sites.find((s) => s.siteName === click.series) : undefined;
  return {
    ...(site ? { assetId: site.assetId } : {}),
    ...(bucket && view.granularity === 'monthly' ? { month: bucket.start.slice(0, 7) } : {}),
    ...(utilityType ? { utilityType } : {}),
    ...(bucket ? { from: bucket.start, to: bucket.end } : {}),
  };
}
