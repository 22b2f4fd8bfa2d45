import * as z from 'zod';
import type { DateRange, Granularity } from '../../shared/analytics/index.ts';
import { dayNumber, defaultAnalyticsWindow } from '../../shared/analytics/index.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { idField, UTILITY_TYPES } from '../../shared/schemas/fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { formError } from '../core/lib/errors.ts';

const GRANULARITIES = ['halfhourly', 'hourly', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
/** Granularities finer than a day, answered from interval data only. */
export type IntervalGranularity = 'halfhourly' | 'hourly';
export const isIntervalGranularity = (g: string): g is IntervalGranularity =>
  g === 'halfhourly' || g === 'hourly';
export const DATA_TYPES = ['consumption', 'cost', 'emissions'] as const;
const COMPARE_PERIODS = ['period', 'month', 'quarter', 'year', 'none'] as const;
/** Where figures come from (02 §9: combined by default). */
const SOURCES = ['combined', 'invoices', 'readings'] as const;

/** The longest window answered, and the longest at daily granularity (one bucket a day). */
const MAX_YEARS = 10;
const MAX_DAILY_DAYS = 3 * 366;
const MAX_HOURLY_DAYS = 93;
const MAX_HALF_HOURLY_DAYS = 31;

const isDate = (v: string) => {
  try {
    dayNumber(v);
    return true;
  } catch {
    return false;
  }
};
const date = () => z.string().refine(isDate, 'Must be a date as YYYY-MM-DD');

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: 'Must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');

const granularity = () =>
  z
    .enum(GRANULARITIES, { error: `Must be one of ${GRANULARITIES.join(', ')}` })
    .default('monthly')
    .transform((v) => v as Granularity | IntervalGranularity);

const accountTypes = () =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .refine(
      (types) => types.length > 0 && types.every((t) => (UTILITY_TYPES as readonly string[]).includes(t)),
      `Must be one or more of ${UTILITY_TYPES.join(', ')}`,
    )
    .transform((types) => [...new Set(types)] as UtilityType[]);

/**
 * The query of the analytics calls. Built on first use: the functions that declare these routes start
 * without building it.
 */
export const analyticsQuerySchema = onFirstUse(() =>
  z
    .object({
      startDate: date().optional(),
      endDate: date().optional(),
      granularity: granularity(),
      dataType: z
        .enum(DATA_TYPES, { error: `Must be one of ${DATA_TYPES.join(', ')}` })
        .default('consumption'),
      accountType: accountTypes().optional(),
      assetId: idField().optional(),
      assetGroupId: idField().optional(),
      /** An entity with every entity below it: the sites of all of them the caller may read. */
      entityId: idField().optional(),
      /** Scope 2 of electricity location-based (the grid average) or market-based (contracts, residual mix). */
      emissions: z.enum(['location', 'market'], { error: 'Must be location or market' }).default('location'),
      /** One meter's figures. */
      accountId: idField().optional(),
      includeCosts: flag(true),
      dateBreakdown: flag(true),
      estimateBreakdown: flag(false),
      comparePeriod: z
        .enum(COMPARE_PERIODS, { error: `Must be one of ${COMPARE_PERIODS.join(', ')}` })
        .default('none'),
      source: z.enum(SOURCES, { error: `Must be one of ${SOURCES.join(', ')}` }).default('combined'),
      /** Each figure split by where its months came from: bills, imports, interval readings, estimates. */
      detailedSource: flag(false),
      /** The records behind each period: bill ids, other meter months, and the provenance call. */
      sourceData: flag(false),
      /** Each figure split by who uses its meters: landlord, tenant, shared, or not set. */
      meterUserBreakdown: flag(false),
    })
    .superRefine((q, ctx) => {
      if ([q.assetId, q.assetGroupId, q.accountId, q.entityId].filter(Boolean).length > 1)
        ctx.addIssue({
          code: 'custom',
          path: ['assetGroupId'],
          message: 'Choose one of a meter, a site, a portfolio or an entity',
        });
    }),
);

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

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
