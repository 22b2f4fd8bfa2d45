import type { Bucket, DateRange } from '../../shared/analytics/index.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { SOURCE_KINDS, type SourcedMonth, type SourceKind } from './analytics-estimates.ts';
import { type Figures, splitUtilities, type Totals } from './analytics-figures.ts';
import type { ReadScope } from './analytics-scope.ts';

/*
 * Loaded only for detailedSource and sourceData, which few calls ask for: the insights function's cold start
 * stays as it was.
 */

/** Records named per period: enough to open the few behind a bar; the provenance call lists them all. */
export const SOURCE_DATA_CAP = 50;

/** The records behind one period's figures. */
export interface PeriodSources {
  /** The bucket's key, or `window` for the whole window. */
  key: string;
  start: string;
  end: string;
  /** Bills written to the period's meter months, at most SOURCE_DATA_CAP ids; `invoiceCount` counts all. */
  invoiceIds: string[];
  invoiceCount: number;
  /** Meter months not from bills (imports, interval readings, estimates), at most SOURCE_DATA_CAP. */
  meterMonths: { accountId: string; month: string; source: Exclude<SourceKind, 'bills'> }[];
  meterMonthCount: number;
  /** The provenance call (under the API) that takes the period's figure apart, where it narrows to the scope. */
  provenance?: string;
}

/**
 * The provenance call for a period of this scope: it narrows to a site, a meter or one utility, and
 * otherwise covers what the caller may read, so a portfolio or an entity has none.
 */
function provenanceOf(scope: ReadScope, utilities: readonly UtilityType[] | undefined, range: DateRange) {
  const params = new URLSearchParams({ from: range.start, to: range.end });
  if (scope.kind === 'site' && scope.id) params.set('assetId', scope.id);
  else if (scope.kind === 'meter' && scope.id) params.set('accountId', scope.id);
  else if (scope.kind !== 'company') return undefined;
  if (utilities?.length === 1 && utilities[0]) params.set('utilityType', utilities[0]);
  else if (utilities && utilities.length > 1) return undefined;
  return `/analytics/provenance?${params.toString()}`;
}

function periodOf(
  key: string,
  range: DateRange,
  months: readonly SourcedMonth[],
  scope: ReadScope,
  utilities: readonly UtilityType[] | undefined,
): PeriodSources {
  const first = range.start.slice(0, 7);
  const last = range.end.slice(0, 7);
  const inside = months.filter((m) => m.figure.month >= first && m.figure.month <= last);
  const invoices = [...new Set(inside.flatMap((m) => m.invoiceIds))].sort();
  const others = inside
    .filter((m) => m.kind !== 'bills')
    .map((m) => ({
      accountId: m.accountId,
      month: m.figure.month,
      source: m.kind as Exclude<SourceKind, 'bills'>,
    }))
    .sort((a, b) => a.month.localeCompare(b.month) || a.accountId.localeCompare(b.accountId));
  const provenance = provenanceOf(scope, utilities, range);
  return {
    key,
    start: range.start,
    end: range.end,
    invoiceIds: invoices.slice(0, SOURCE_DATA_CAP),
    invoiceCount: invoices.length,
    meterMonths: others.slice(0, SOURCE_DATA_CAP),
    meterMonthCount: others.length,
    ...(provenance ? { provenance } : {}),
  };
}

/** The records behind the window's figures and, when the answer has them, behind each bucket's. */
export function sourceDataOf(
  months: readonly SourcedMonth[],
  window: DateRange,
  buckets: readonly Bucket[] | undefined,
  scope: ReadScope,
  utilities: readonly UtilityType[] | undefined,
): { window: PeriodSources; buckets?: PeriodSources[] } {
  // Dates as YYYY-MM-DD order as strings; a bucket at either end of the window is cut to it.
  const [later, earlier] = [
    (a: string, b: string) => [a, b].sort()[1] ?? a,
    (a: string, b: string) => [a, b].sort()[0] ?? a,
  ];
  const clip = (b: Bucket): DateRange => ({
    start: later(b.start, window.start),
    end: earlier(b.end, window.end),
  });
  return {
    window: periodOf('window', window, months, scope, utilities),
    ...(buckets ? { buckets: buckets.map((b) => periodOf(b.key, clip(b), months, scope, utilities)) } : {}),
  };
}

function markSources(into: Totals, parts: Partial<Record<SourceKind, Totals>>): void {
  splitUtilities(into, SOURCE_KINDS, parts, (figures, sources) => {
    figures.sources = sources;
  });
}

/** Gives each utility figure, per bucket and in the totals, the part each source gives of it. */
export function withSources(figures: Figures, bySource: Readonly<Record<SourceKind, Figures>>): void {
  const byKey = (kind: SourceKind) => new Map(bySource[kind].buckets.map((b) => [b.key, b]));
  const keyed = SOURCE_KINDS.map((kind) => [kind, byKey(kind)] as const);
  for (const bucket of figures.buckets)
    markSources(bucket, Object.fromEntries(keyed.map(([kind, m]) => [kind, m.get(bucket.key)])));
  markSources(figures.totals, Object.fromEntries(SOURCE_KINDS.map((kind) => [kind, bySource[kind].totals])));
}
