import * as z from 'zod/mini';
import {
  addDays,
  addMonths,
  type BillRecord,
  type DateRange,
  dayNumber,
  type MeterDataQuality,
  meterDataQuality,
} from '../../shared/analytics/index.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import { meterDataQualityParamsFields } from '../../shared/schemas/dashboard-widget-fields.ts';
import type { MeterQualityAnswer } from '../../shared/schemas/dashboard-widgets.ts';
import { isoDateField } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { findAccount, utilityOf } from '../accounts/index.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { invoicesRef, queryIndexed } from '../invoices/index.ts';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** Whether a bill's closing read was estimated, as capture or a person recorded it. */
function estimatedRead(values: Record<string, unknown>): boolean {
  const type = str(values.readType) ?? str(values.closingReadType);
  return values.estimatedRead === true || type === 'estimated' || type === 'E';
}

/**
 * A meter's bills as the data-quality rules read them: each live invoice (not a credit note) with a period,
 * its consumption in the meter's unit. A bill whose unit cannot be converted still covers its days.
 */
export function billRecordsOf(invoices: readonly StoredItem[], unit: string): BillRecord[] {
  const bills: BillRecord[] = [];
  for (const invoice of invoices) {
    if (invoice.deleted === true || invoice.isCreditNote === true) continue;
    const values = objectOf(invoice.values);
    const start = str(values.startDate) ?? str(invoice.invoiceStartDate);
    const end = str(values.endDate) ?? str(invoice.invoiceEndDate);
    if (!start || !end || end < start) continue;
    const raw = num(values.consumption) ?? 0;
    const quantity = convertQuantity(raw, str(values.consumptionUnit) ?? unit, unit) ?? 0;
    bills.push({
      id: invoice._id,
      start,
      end,
      quantity,
      cost: { net: num(values.netTotal) ?? 0, vat: num(values.vatTotal) ?? 0 },
      estimatedRead: estimatedRead(values),
    });
  }
  return bills;
}

/** The meter's unit: its own, or its utility's default. */
export const meterUnit = (account: StoredItem): string =>
  str(account.unit) ?? defaultUnit(utilityOf(account));

/** One meter's data quality over a window, from its bills. */
export function qualityOfMeter(
  account: StoredItem,
  invoices: readonly StoredItem[],
  window: DateRange,
): { quality: MeterDataQuality; bills: number } {
  const bills = billRecordsOf(invoices, meterUnit(account));
  return { quality: meterDataQuality(bills, window), bills: bills.length };
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

function answerOf(accountId: string, unit: string, bills: number, q: MeterDataQuality): MeterQualityAnswer {
  const days = (r: DateRange) => dayNumber(r.end) - dayNumber(r.start) + 1;
  return {
    accountId,
    window: { startDate: q.window.start, endDate: q.window.end },
    unit,
    bills,
    coverage: round(q.coverage, 4),
    gaps: q.gaps.map((g) => ({ ...g, days: days(g) })),
    gapDays: q.gapDays,
    fills: q.fills.map((f) => ({
      start: f.start,
      end: f.end,
      days: f.days,
      basis: f.basis,
      quantity: round(f.quantity, 3),
    })),
    unfilled: q.unfilled,
    overlaps: q.overlaps.map((o) => ({
      start: o.start,
      end: o.end,
      days: o.days,
      keptBillId: o.keptBillId,
      droppedBillId: o.droppedBillId,
    })),
    overlapDays: q.overlapDays,
    estimatedReadBills: q.estimatedReadBills,
    estimatedDays: q.estimatedDays,
    outliers: q.outliers.map((o) => ({
      month: o.month,
      dailyUse: round(o.dailyUse, 3),
      neighbourMedian: round(o.neighbourMedian, 3),
      ratio: round(o.ratio, 3),
      direction: o.direction,
    })),
  };
}

const meterDataQualityParamsSchema = onFirstUse(meterDataQualityParamsFields);

const qualityQuerySchema = onFirstUse(() =>
  z.object({ startDate: z.optional(isoDateField()), endDate: z.optional(isoDateField()) }),
);

/** The default window of the meter page: the 24 full months before this one. */
function meterWindow(q: z.infer<typeof qualityQuerySchema>, today: string): DateRange {
  const monthStart = `${today.slice(0, 7)}-01`;
  const window = {
    start: q.startDate ?? addMonths(monthStart, -24),
    end: q.endDate ?? addDays(monthStart, -1),
  };
  if (window.end < window.start)
    throw formError({ endDate: 'The end date must be on or after the start date' });
  if (dayNumber(window.end) - dayNumber(window.start) > 10 * 366)
    throw formError({ startDate: 'The window can be at most 10 years long' });
  return window;
}

/**
 * GET /analytics/meters/{accountId}/data-quality: the gaps, overlaps, estimates and outlying months of a
 * meter's bills (the route's item check has let the caller read the meter).
 */
const meterQuality = operation({ params: ['accountId'] }, async (ctx): Promise<OpResult> => {
  const { accountId } = parseOrThrow(meterDataQualityParamsSchema, ctx.params);
  const account = await findAccount(ctx.caller.companyId, accountId);
  if (!account) throw notFound();
  const window = meterWindow(
    parseOrThrow(qualityQuerySchema, ctx.query),
    new Date().toISOString().slice(0, 10),
  );
  const invoices = await queryIndexed(invoicesRef(ctx.caller.companyId), 'accountId', accountId);
  const { quality, bills } = qualityOfMeter(account, invoices, window);
  return { body: answerOf(accountId, meterUnit(account), bills, quality) };
});

export const METER_QUALITY_OPERATIONS: Operations = {
  'analytics.meterDataQuality': meterQuality,
};
