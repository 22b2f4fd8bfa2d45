import type { Granularity } from '../../../shared/analytics/calendars.ts';
import type { ComparePeriod } from '../../../shared/analytics/comparison.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import { dateRangePresets } from '../../lib/date-presets.ts';

/**
 * The utility types, listed here rather than imported with their schema so the Insights chunk does not
 * carry the schema library (a test holds the two lists equal).
 */
export const UTILITIES: readonly UtilityType[] = [
  'electricity',
  'gas',
  'water',
  'waste',
  'heating',
  'cooling',
  'solar',
];

/** The three Insights pages: what each one measures. */
export type Measure = 'emissions' | 'consumption' | 'costs';

export const GRANULARITIES: readonly { value: Granularity; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'quarterly', label: 'Quarterly' },
  { value: 'yearly', label: 'Yearly' },
];

export const COMPARE_PERIODS: readonly { value: ComparePeriod; label: string }[] = [
  { value: 'period', label: 'Previous period' },
  { value: 'month', label: 'Previous month' },
  { value: 'quarter', label: 'Previous quarter' },
  { value: 'year', label: 'Previous year' },
  { value: 'none', label: 'No comparison' },
];

export type ScopeKind = 'company' | 'portfolio' | 'entity' | 'site';
export type Breakdown = 'utility' | 'site';
export type EmissionsBasis = 'location' | 'market';

/** Everything a view of an Insights page is made of; it lives in the URL query so a view can be shared. */
export interface InsightsFilters {
  start: string;
  end: string;
  granularity: Granularity;
  /** One utility, or every utility when absent. */
  utility?: UtilityType;
  compare: ComparePeriod;
  basis: EmissionsBasis;
  scope: ScopeKind;
  /** The portfolio, entity or site; absent for the company. */
  scopeId?: string;
  breakdown: Breakdown;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/** The default window: the last twelve whole calendar months, as the preset names it. */
export function defaultRange(now: Date): { start: string; end: string } {
  const preset = dateRangePresets(now).find((p) => p.key === 'last-12-calendar-months');
  return { start: preset?.start ?? '', end: preset?.end ?? '' };
}

export function defaultFilters(now: Date): InsightsFilters {
  return {
    ...defaultRange(now),
    granularity: 'monthly',
    compare: 'year',
    basis: 'location',
    scope: 'company',
    breakdown: 'utility',
  };
}

/** The filters a URL query holds; anything missing or malformed takes its default. */
export function filtersFromQuery(query: URLSearchParams, now: Date): InsightsFilters {
  const d = defaultFilters(now);
  const start = query.get('from') ?? '';
  const end = query.get('to') ?? '';
  const range = DATE.test(start) && DATE.test(end) && start <= end ? { start, end } : defaultRange(now);
  const scope = oneOf<ScopeKind>(['company', 'portfolio', 'entity', 'site'], query.get('scope'), 'company');
  const scopeId = query.get('scopeId') ?? '';
  const utility = query.get('utility') ?? '';
  return {
    ...range,
    granularity: oneOf(
      GRANULARITIES.map((g) => g.value),
      query.get('granularity'),
      d.granularity,
    ),
    ...((UTILITIES as readonly string[]).includes(utility) ? { utility: utility as UtilityType } : {}),
    compare: oneOf(
      COMPARE_PERIODS.map((c) => c.value),
      query.get('compare'),
      d.compare,
    ),
    basis: oneOf<EmissionsBasis>(['location', 'market'], query.get('basis'), d.basis),
    // A portfolio, entity or site without its id is the company.
    ...(scope !== 'company' && scopeId ? { scope, scopeId } : { scope: 'company' }),
    breakdown: oneOf<Breakdown>(['utility', 'site'], query.get('by'), d.breakdown),
  };
}

/** The URL query of a view, naming only what differs from the defaults so shared links stay short. */
export function queryOfFilters(f: InsightsFilters, now: Date): URLSearchParams {
  const d = defaultFilters(now);
  const q = new URLSearchParams();
  if (f.start !== d.start || f.end !== d.end) {
    q.set('from', f.start);
    q.set('to', f.end);
  }
  if (f.granularity !== d.granularity) q.set('granularity', f.granularity);
  if (f.utility) q.set('utility', f.utility);
  if (f.compare !== d.compare) q.set('compare', f.compare);
  if (f.basis !== d.basis) q.set('basis', f.basis);
  if (f.scope !== 'company' && f.scopeId) {
    q.set('scope', f.scope);
    q.set('scopeId', f.scopeId);
  }
  if (f.breakdown !== d.breakdown) q.set('by', f.breakdown);
  return q;
}

const DATA_TYPES: Record<Measure, string> = {
  emissions: 'emissions',
  consumption: 'consumption',
  costs: 'cost',
};

/** The analytics call's query for a view: the company, a portfolio, an entity (with those below it) or a site. */
export function analyticsQuery(
  f: InsightsFilters,
  measure: Measure,
  options: { assetId?: string; withCosts: boolean; dateBreakdown?: boolean },
): Record<string, string> {
  const q: Record<string, string> = {
    startDate: f.start,
    endDate: f.end,
    granularity: f.granularity,
    dataType: DATA_TYPES[measure],
    comparePeriod: f.compare,
    estimateBreakdown: 'true',
    includeCosts: String(options.withCosts),
    dateBreakdown: String(options.dateBreakdown ?? true),
  };
  if (measure === 'emissions') q.emissions = f.basis;
  if (f.utility) q.accountType = f.utility;
  if (options.assetId) q.assetId = options.assetId;
  else if (f.scope === 'site' && f.scopeId) q.assetId = f.scopeId;
  else if (f.scope === 'portfolio' && f.scopeId) q.assetGroupId = f.scopeId;
  else if (f.scope === 'entity' && f.scopeId) q.entityId = f.scopeId;
  return q;
}

/** A query object as the sorted query string of an SWR key, so equal views share one cache entry. */
export function queryString(q: Record<string, string>): string {
  return new URLSearchParams(Object.entries(q).sort(([a], [b]) => a.localeCompare(b))).toString();
}
