import * as z from 'zod/mini';
// The narrow modules, not the analytics barrel: the functions declaring these routes start without the
// emission factor tables the barrel pulls in.
import type { Granularity } from '../analytics/calendars.ts';
import { dayNumber } from '../analytics/dates.ts';
import type { UtilityType } from './common.ts';
import { idField, UTILITY_TYPES } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/*
 * The query of the analytics calls (02 §7 Analytics), declared on their routes so that the calls receive
 * it parsed, and read by report rendering, which asks the same questions.
 */

const GRANULARITIES = ['halfhourly', 'hourly', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
/** Granularities finer than a day, answered from interval data only. */
export type IntervalGranularity = 'halfhourly' | 'hourly';
export const isIntervalGranularity = (g: string): g is IntervalGranularity =>
  g === 'halfhourly' || g === 'hourly';
export const DATA_TYPES = ['consumption', 'cost', 'emissions'] as const;
const COMPARE_PERIODS = ['period', 'month', 'quarter', 'year', 'none'] as const;
/** Where figures come from (02 §9: combined by default). */
const SOURCES = ['combined', 'invoices', 'readings'] as const;

const isDate = (v: string) => {
  try {
    dayNumber(v);
    return true;
  } catch {
    return false;
  }
};
const date = () => z.string().check(z.refine(isDate, 'Must be a date as YYYY-MM-DD'));

const flag = (fallback: boolean) =>
  z.pipe(
    z._default(z.enum(['true', 'false'], { error: 'Must be true or false' }), fallback ? 'true' : 'false'),
    z.transform((v) => v === 'true'),
  );

const granularity = () =>
  z.pipe(
    z._default(z.enum(GRANULARITIES, { error: `Must be one of ${GRANULARITIES.join(', ')}` }), 'monthly'),
    z.transform((v) => v as Granularity | IntervalGranularity),
  );

const accountTypes = () =>
  z.pipe(
    z
      .pipe(
        z.string(),
        z.transform((v) =>
          v
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      )
      .check(
        z.refine(
          (types) => types.length > 0 && types.every((t) => (UTILITY_TYPES as readonly string[]).includes(t)),
          `Must be one or more of ${UTILITY_TYPES.join(', ')}`,
        ),
      ),
    z.transform((types) => [...new Set(types)] as UtilityType[]),
  );

/** The fields of the analytics query, built when called. */
const queryFields = () => ({
  startDate: z.optional(date()),
  endDate: z.optional(date()),
  granularity: granularity(),
  dataType: z._default(
    z.enum(DATA_TYPES, { error: `Must be one of ${DATA_TYPES.join(', ')}` }),
    'consumption',
  ),
  accountType: z.optional(accountTypes()),
  assetId: z.optional(idField()),
  assetGroupId: z.optional(idField()),
  /** An entity with every entity below it: the sites of all of them the caller may read. */
  entityId: z.optional(idField()),
  /** Scope 2 of electricity location-based (the grid average) or market-based (contracts, residual mix). */
  emissions: z._default(z.enum(['location', 'market'], { error: 'Must be location or market' }), 'location'),
  /** One meter's figures. */
  accountId: z.optional(idField()),
  includeCosts: flag(true),
  dateBreakdown: flag(true),
  estimateBreakdown: flag(false),
  comparePeriod: z._default(
    z.enum(COMPARE_PERIODS, { error: `Must be one of ${COMPARE_PERIODS.join(', ')}` }),
    'none',
  ),
  source: z._default(z.enum(SOURCES, { error: `Must be one of ${SOURCES.join(', ')}` }), 'combined'),
  /** Each figure split by where its months came from: bills, imports, interval readings, estimates. */
  detailedSource: flag(false),
  /** The records behind each period: bill ids, other meter months, and the provenance call. */
  sourceData: flag(false),
  /** Each figure split by who uses its meters: landlord, tenant, shared, or not set. */
  meterUserBreakdown: flag(false),
});

export const ONE_SCOPE_MESSAGE = 'Choose one of a meter, a site, a portfolio or an entity';

/** Whether a query names more than one of a meter, a site, a portfolio and an entity. */
export const namesSeveralScopes = (q: {
  assetId?: string;
  assetGroupId?: string;
  accountId?: string;
  entityId?: string;
}): boolean => [q.assetId, q.assetGroupId, q.accountId, q.entityId].filter(Boolean).length > 1;

/**
 * The query of the analytics calls. Built on first use: the functions that declare these routes start
 * without building it.
 */
export const analyticsQuerySchema = onFirstUse(() =>
  z.object(queryFields()).check(
    z.superRefine((q, ctx) => {
      if (namesSeveralScopes(q))
        ctx.addIssue({ code: 'custom', path: ['assetGroupId'], message: ONE_SCOPE_MESSAGE });
    }),
  ),
);

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

/**
 * The query of a site's or a portfolio's own analytics (GET /assets/{id}/analytics and
 * /asset-groups/{id}/analytics): the path names the site or portfolio, so a site or portfolio in the query
 * is passed over, and `id` names the analytics (consumption by default).
 */
export const itemAnalyticsQuerySchema = onFirstUse(() => {
  const { assetId: _a, assetGroupId: _g, ...fields } = queryFields();
  return z.object({ ...fields, id: z.optional(z.string()) });
});

/**
 * The query of GET /assets/{id}/group-analytics: each of the site's portfolios is asked in turn, so a site
 * or an analytics id in the query is passed over, and `assetGroupId` only picks one of the portfolios.
 */
export const groupAnalyticsQuerySchema = onFirstUse(() => {
  const { assetId: _a, assetGroupId: _g, ...fields } = queryFields();
  return z.object({ ...fields, assetGroupId: z.optional(z.string()) });
});
