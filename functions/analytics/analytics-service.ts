import type { Caller } from '../../shared/access/caller.ts';
import {
  type CalendarPeriod,
  type ComparePeriod,
  comparisonWindow,
  type DateRange,
  type Granularity,
} from '../../shared/analytics/index.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type { AnalyticsAnswerView } from '../../shared/schemas/responses/analytics.ts';
import { getCompany } from '../company/index.ts';
import { ApiError, formError, notFound } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { type EmissionsChange, emissionsChangeOf, floorAreas } from './analytics-decomposition.ts';
import { sitesOf } from './analytics-epc.ts';
import type { SourceKind } from './analytics-estimates.ts';
import {
  type BucketFigures,
  type EmissionsBasis,
  type Figures,
  figuresOf,
  type MonthShares,
  monthsOf,
  type ScopeFigures,
  type Totals,
  totalsByAsset,
} from './analytics-figures.ts';
import {
  type AnalyticsQuery,
  analyticsQuerySchema,
  groupAnalyticsQuerySchema,
  isIntervalGranularity,
  itemAnalyticsQuerySchema,
  namesSeveralScopes,
  ONE_SCOPE_MESSAGE,
  refuseUnanswerable,
  windowOf,
} from './analytics-params.ts';
import { readFigures } from './analytics-read-figures.ts';
import { meterScope, portfoliosOfSite, resolveScope, type ScopeKind } from './analytics-scope.ts';
import {
  groupAccountTypes,
  SITE_ANALYTICS_IDS,
  type SiteAnalyticsId,
  siteAnswer,
} from './analytics-site-answers.ts';
import type { PeriodSources } from './analytics-source-data.ts';
import type { TenantFigures } from './analytics-splits.ts';

/** The sources of the meters' months each choice of `source` counts (see analytics-splits). */
const SOURCE_KINDS_OF: Readonly<Record<'invoices' | 'readings', readonly SourceKind[]>> = {
  invoices: ['bills', 'estimates'],
  readings: ['imports', 'readings'],
};

/** The analytics the service answers: the company's (or a scope's) figures, and the same by site. */
const ANALYTICS_IDS = ['consumption', 'asset-consumption'] as const;
type AnalyticsId = (typeof ANALYTICS_IDS)[number];

/**
 * The company setting's labels (shared/schemas/company.ts) as the calendars are named; spelled out here so
 * the insights function is not built with the company schemas.
 */
const CALENDARS: Readonly<Record<string, CalendarPeriod>> = {
  Standard: 'standard',
  '13 Week Periods UK Financial Year': 'thirteen-week',
  'Rail Calendar': 'rail',
};

interface CompanyView {
  calendar: CalendarPeriod;
  hideCostData: boolean;
}

async function companyView(companyId: string): Promise<CompanyView> {
  const s = (await getCompany(companyId))?.settings ?? {};
  const label = typeof s.calendarPeriod === 'string' ? s.calendarPeriod : '';
  const calendar = Object.hasOwn(CALENDARS, label) ? CALENDARS[label] : undefined;
  return { calendar: calendar ?? 'standard', hideCostData: s.hideCostData === true };
}

export interface AnalyticsAnswer extends AnalyticsAnswerView {
  id: AnalyticsId;
  version: 'v1' | 'v2';
  scope: {
    type: ScopeKind;
    id?: string;
    name?: string;
    /** Narrowed to the sites and meters the caller may read. */
    restricted: boolean;
    sites?: number;
    meters?: number;
  };
  window: { startDate: string; endDate: string };
  granularity: AnalyticsQuery['granularity'];
  calendarPeriod: CalendarPeriod;
  dataType: AnalyticsQuery['dataType'];
  /** Which scope 2 figure electricity's emissionsKg holds; `scopes` gives both. */
  emissionsBasis: EmissionsBasis;
  accountTypes?: UtilityType[];
  /** Costs were left out: the company hides cost data, the caller asked without them, or interval data has none. */
  costsIncluded: boolean;
  /** Meters whose interval data made the half-hourly, hourly or daily figures. */
  intervalMeters?: number;
  buckets?: BucketFigures[];
  totals: Totals;
  /** Emissions by scope (1, 2 location- and market-based, 3) over the window and, with dateBreakdown, per bucket. */
  scopes: { totals: ScopeFigures['totals']; buckets?: ScopeFigures['buckets'] };
  comparison?: {
    comparePeriod: ComparePeriod;
    window: { startDate: string; endDate: string };
    totals: Totals;
    scopes?: ScopeFigures['totals'];
    /**
     * Emissions compared year on year: the change split into what consumption, the emission factors and
     * the floor area each added, from the same roll-ups as the two totals.
     */
    emissionsChange?: EmissionsChange;
  };
  /** With sourceData: the records behind the window's figures and each bucket's. */
  sourceData?: { window: PeriodSources; buckets?: PeriodSources[] };
  /** With meterUserBreakdown for one site: its tenants' parts over the window, by the meters naming them. */
  tenants?: TenantFigures[];
  /** asset-consumption: each site's totals over the window. */
  assets?: { _id: string; siteName?: string; totals: Totals }[];
  factorVersions: string[];
}

/** The granularities interval data can answer (analytics-half-hourly-figures `intervalAnswer`). */
const readsIntervalData = (granularity: string) =>
  granularity === 'daily' || granularity === 'hourly' || granularity === 'halfhourly';

const asWindow = (w: DateRange) => ({ startDate: w.start, endDate: w.end });
const today = () => new Date().toISOString().slice(0, 10);

/** The answer for one analytics id over a scope, as every analytics call gives it. */
async function answer(
  caller: Caller,
  id: AnalyticsId,
  version: 'v1' | 'v2',
  query: AnalyticsQuery,
): Promise<AnalyticsAnswer> {
  refuseUnanswerable(query, true);
  const window = windowOf(query, today());
  const view = await companyView(caller.companyId);
  if (query.dataType === 'cost' && view.hideCostData)
    throw formError({ dataType: 'Cost data is hidden for this company' });
  const withCosts = query.includeCosts && !view.hideCostData;
  const bySite = id === 'asset-consumption';
  const scope = query.accountId
    ? await meterScope(caller, query.accountId)
    : await resolveScope(caller, {
        assetId: query.assetId,
        assetGroupId: query.assetGroupId,
        entityId: query.entityId,
        bySite,
      });
  const basis = query.emissions;
  const compared = comparisonWindow(window, query.comparePeriod);
  // One read covers both windows: the comparison's months and the window's.
  const span = compared ? { start: compared.start, end: window.end } : window;
  const fine = isIntervalGranularity(query.granularity);
  // Limited to one source or split by meter user: from the split the roll-ups keep, loaded when asked for.
  const limited = query.source !== 'combined' ? query.source : undefined;
  const splits = limited || query.meterUserBreakdown ? await import('./analytics-splits.ts') : undefined;
  // A meter moved between users by a request that died before its site's rebuild is moved by the worker.
  if (splits && query.meterUserBreakdown) await splits.handOnDeadMeterUserMoves(caller.companyId);
  const read = await readFigures(caller, scope, monthsOf(span), query.accountType, splits !== undefined);
  const rows = splits && limited ? splits.onlySource(read, limited) : read;
  // Interval data are readings: kept at every granularity for them, and for a split by day (no split is
  // kept by day) each month's part is spread over its days.
  // Only daily, hourly and half-hourly figures read interval data: their code loads with the first of them.
  const interval =
    (splits && !(fine && limited === 'readings')) || !readsIntervalData(query.granularity)
      ? undefined
      : await (await import('./analytics-half-hourly-figures.ts')).intervalAnswer(
          caller.companyId,
          scope,
          rows,
          window,
          query,
          view.calendar,
          withCosts,
        );
  const shares: MonthShares = new Map();
  // The window's figures, and each part's (by source, by meter user), bucketed alike.
  const windowFigures = (months: Parameters<typeof figuresOf>[0]) =>
    figuresOf(months, window, query.granularity as Granularity, view.calendar, withCosts, basis, shares);
  const figures: Figures = interval?.figures ?? windowFigures(rows);
  // The roll-ups add the sources together: their parts come from the meters' own months, read once. Few
  // calls ask for them, so the code is loaded when one does and the function's cold start stays as it was.
  const parts =
    (query.estimateBreakdown && !fine) || query.detailedSource || query.sourceData
      ? await import('./analytics-estimates.ts')
      : undefined;
  const kept = limited ? SOURCE_KINDS_OF[limited] : undefined;
  const sourced =
    parts &&
    (await parts.readSourcedMonths(caller, scope, monthsOf(window), query.accountType)).filter(
      (m) => !kept || kept.includes(m.kind),
    );
  const partOf = (kind: SourceKind) => windowFigures(parts?.monthsFrom(sourced ?? [], kind) ?? []);
  if (parts && query.estimateBreakdown && !fine) parts.withEstimates(figures, partOf('estimates'));
  const bySource =
    query.detailedSource || query.sourceData ? await import('./analytics-source-data.ts') : undefined;
  if (parts && bySource && query.detailedSource)
    bySource.withSources(
      figures,
      Object.fromEntries(parts.SOURCE_KINDS.map((k) => [k, partOf(k)])) as Record<SourceKind, Figures>,
    );
  if (splits && query.meterUserBreakdown) {
    const byUser = splits.byUser(rows);
    splits.withUsers(
      figures,
      Object.fromEntries(splits.USER_PARTS.map((u) => [u, windowFigures(byUser[u])])) as Record<
        (typeof splits.USER_PARTS)[number],
        Figures
      >,
    );
  }
  const tenants =
    splits && query.meterUserBreakdown && scope.kind === 'site' && scope.id
      ? await splits.tenantsOfSite(
          caller.companyId,
          scope.id,
          window,
          { utilities: query.accountType, ...(limited ? { source: limited } : {}) },
          withCosts,
          basis,
        )
      : undefined;
  // Interval figures are finer than a month: their window's scopes come from the same months, by month.
  const scopes = figures.scopes ?? figuresOf(rows, window, 'yearly', view.calendar, false, basis).scopes;
  if (!scopes) throw new Error('Monthly figures always carry their scopes');
  const versions = new Set(figures.factorVersions);
  let comparison: AnalyticsAnswer['comparison'];
  if (compared) {
    const before = figuresOf(rows, compared, 'yearly', view.calendar, withCosts, basis);
    for (const v of before.factorVersions) versions.add(v);
    const split =
      query.comparePeriod === 'year' && query.dataType === 'emissions'
        ? emissionsChangeOf(
            before.totals,
            figures.totals,
            floorAreas(await sitesOf(caller, scope), rows, window, compared),
          )
        : undefined;
    comparison = {
      comparePeriod: query.comparePeriod,
      window: asWindow(compared),
      totals: before.totals,
      ...(before.scopes ? { scopes: before.scopes.totals } : {}),
      ...(split ? { emissionsChange: split } : {}),
    };
  }
  let assets: AnalyticsAnswer['assets'];
  if (bySite) {
    const totals = totalsByAsset(rows, window, withCosts, basis);
    const empty: Totals = { utilities: {}, ...(withCosts ? { cost: 0 } : {}), emissionsKg: 0 };
    const ids = new Set([...scope.sites.map((s) => s._id), ...scope.meters.flatMap((m) => m.assetId ?? [])]);
    const names = new Map(scope.sites.map((s) => [s._id, s.siteName]));
    assets = [...ids].map((assetId) => {
      const siteName = names.get(assetId);
      return { _id: assetId, ...(siteName ? { siteName } : {}), totals: totals.get(assetId) ?? empty };
    });
  }
  return {
    id,
    version,
    scope: {
      type: scope.kind,
      ...(scope.id ? { id: scope.id } : {}),
      ...(scope.name ? { name: scope.name } : {}),
      restricted: scope.restricted,
      ...(scope.wholeCompany ? {} : { sites: scope.sites.length, meters: scope.meters.length }),
    },
    window: asWindow(window),
    granularity: query.granularity,
    calendarPeriod: view.calendar,
    dataType: query.dataType,
    emissionsBasis: basis,
    ...(query.accountType ? { accountTypes: query.accountType } : {}),
    costsIncluded: interval?.costsIncluded ?? withCosts,
    ...(interval ? { intervalMeters: interval.intervalMeters } : {}),
    ...(query.dateBreakdown ? { buckets: figures.buckets } : {}),
    totals: figures.totals,
    scopes: {
      totals: scopes.totals,
      ...(query.dateBreakdown && figures.scopes ? { buckets: scopes.buckets } : {}),
    },
    ...(comparison ? { comparison } : {}),
    ...(query.sourceData && sourced && bySource
      ? {
          sourceData: bySource.sourceDataOf(
            sourced,
            window,
            query.dateBreakdown ? figures.buckets : undefined,
            scope,
            query.accountType,
          ),
        }
      : {}),
    ...(tenants ? { tenants } : {}),
    ...(assets ? { assets } : {}),
    factorVersions: [...versions].sort(),
  };
}

/**
 * The consumption analytics of a scope as `GET /analytics/v2/consumption` (or, by site,
 * `asset-consumption`) answers the caller, for other areas that set the same figures out otherwise.
 */
export function consumptionAnalytics(
  caller: Caller,
  query: AnalyticsQuery,
  bySite = false,
): Promise<AnalyticsAnswer> {
  return answer(caller, bySite ? 'asset-consumption' : 'consumption', 'v2', query);
}

const isAnalyticsId = (id: string | undefined): id is AnalyticsId =>
  (ANALYTICS_IDS as readonly (string | undefined)[]).includes(id);
const isSiteAnalyticsId = (id: string | undefined): id is SiteAnalyticsId =>
  (SITE_ANALYTICS_IDS as readonly (string | undefined)[]).includes(id);

/** GET /analytics/{version}/{id}: a known analytics id, else 404 naming it. */
const byId = (version: 'v1' | 'v2') =>
  operation({ params: ['id'], query: analyticsQuerySchema }, async (ctx): Promise<OpResult> => {
    const id = ctx.params.id;
    if (!isAnalyticsId(id) && !isSiteAnalyticsId(id)) throw notFound(`There are no analytics called ${id}`);
    const query = ctx.query;
    if (isSiteAnalyticsId(id)) {
      refuseUnanswerable(query, false);
      return { body: await siteAnswer(ctx, id, version, query) };
    }
    return { body: await answer(ctx.caller, id, version, query) };
  });

/**
 * GET /assets/{id}/analytics and /asset-groups/{id}/analytics: the consumption analytics of the site or
 * portfolio in the path (the route's item check has let the caller read it); `?id=asset-consumption`
 * breaks a portfolio down by site.
 */
const forItem = (param: 'assetId' | 'assetGroupId') =>
  operation({ params: ['id'], query: itemAnalyticsQuerySchema }, async (ctx): Promise<OpResult> => {
    const { id: asked = 'consumption', ...rest } = ctx.query;
    if (!isAnalyticsId(asked) && !isSiteAnalyticsId(asked))
      throw formError({ id: `Must be one of ${[...ANALYTICS_IDS, ...SITE_ANALYTICS_IDS].join(', ')}` });
    const query: AnalyticsQuery = { ...rest, [param]: ctx.params.id };
    if (namesSeveralScopes(query)) throw formError({ assetGroupId: ONE_SCOPE_MESSAGE });
    if (isSiteAnalyticsId(asked)) {
      refuseUnanswerable(query, false);
      return { body: await siteAnswer(ctx, asked, 'v2', query) };
    }
    return { body: await answer(ctx.caller, asked, 'v2', query) };
  });

/**
 * GET /assets/{id}/group-analytics: the consumption analytics of each portfolio the site belongs to and
 * the caller may read (`?assetGroupId=` picks one), to set the site beside its portfolios.
 */
const groupAnalytics = operation(
  { params: ['id'], query: groupAnalyticsQuerySchema },
  async (ctx): Promise<OpResult> => {
    const assetId = ctx.params.id;
    const { assetGroupId: only, ...rest } = ctx.query;
    const groups = (await portfoliosOfSite(ctx.caller.companyId, assetId)).filter(
      (g) => !only || g._id === only,
    );
    const data = [];
    for (const group of groups) {
      const query: AnalyticsQuery = { ...rest, assetGroupId: group._id };
      if (namesSeveralScopes(query)) throw formError({ assetGroupId: ONE_SCOPE_MESSAGE });
      try {
        data.push(await answer(ctx.caller, 'consumption', 'v2', query));
      } catch (err) {
        // A portfolio with a site the caller may not read is hidden from them, as its own call would be.
        if (err instanceof ApiError && err.status === 404) continue;
        throw err;
      }
    }
    return { body: { assetId, data } };
  },
);

export const ANALYTICS_OPERATIONS: Operations = {
  'analytics.v1': byId('v1'),
  'analytics.v2': byId('v2'),
  'analytics.asset': forItem('assetId'),
  'analytics.assetGroup': forItem('assetGroupId'),
  'analytics.assetGroups': groupAnalytics,
  'analytics.assetGroupAccountTypes': groupAccountTypes,
};
