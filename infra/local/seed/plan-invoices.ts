import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { captureKey } from '../../../functions/invoices/invoice-records.ts';
import type {
  CaptureResults,
  ExtractedRate,
  ExtractedValues,
  InvoiceExtract,
  InvoiceKey,
} from '../../../shared/capture/model.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import { round } from '../../../shared/validation/figures.ts';
import type { MonthSlot } from './consumption-model.ts';
import type { PlannedAccount, SupplierRef } from './plan-accounts.ts';
import type { MeterRegister, PlannedContract } from './plan-contracts.ts';

/**
 * The last touches to a company's planned bills, once its meters' registers and contracts are planned:
 * each bill gets the reads its meter shows, and the bills of the latest months become what capture makes
 * of a supplier's PDF that arrived and awaits review: captured, not yet confirmed, with the document's
 * key and the extraction results. The seed stores their PDFs and runs them through bill validation.
 */

/**
 * Months, counting back from the last complete one, whose bills still await review: the last month's.
 * Each is validated while the stack starts, so more would slow the first start.
 */
export const REVIEW_MONTHS = 1;

/** How much above the contract rate an overcharged bill's unit rate is. */
const OVERCHARGE = 1.065;

export interface InvoiceFinishContext {
  companyId: string;
  slots: readonly MonthSlot[];
  suppliers: readonly SupplierRef[];
  registers: ReadonlyMap<string, MeterRegister>;
  contracts: readonly PlannedContract[];
  /** A supplier that bills some of the latest bills above the contract's unit rate, for the checks to find. */
  overcharge?: { supplierName: string; count: number };
}

const valuesOf = (invoice: StoredItem) => invoice.values as Record<string, string | number | boolean>;
const linesOf = (invoice: StoredItem) => invoice.rates as ExtractedRate[];

function addReads(account: PlannedAccount, register: MeterRegister | undefined): void {
  if (!register) return;
  const decimals = account.type === 'water' ? 1 : 0;
  let opening = register.start;
  for (const m of account.months) {
    const closing = register.closing.get(m.month);
    if (closing === undefined) continue;
    const invoice = account.invoices.find((i) => i._id === m.invoiceId);
    if (invoice) {
      const values = valuesOf(invoice);
      values.openingRead = round(opening, decimals);
      values.closingRead = closing;
    }
    opening = closing;
  }
}

/**
 * The bill charged above its contract's unit rate: the unit line and every total follow from the higher
 * rate, so its arithmetic, VAT and levy hold and only the contract check finds it. The month it fills
 * holds what it bills, as every month holds what its bill says.
 */
function overcharge(account: PlannedAccount, invoice: StoredItem): void {
  const values = valuesOf(invoice);
  const lines = linesOf(invoice);
  const unitLine = lines.find((r) => r.kind === 'unit');
  if (!unitLine || unitLine.units === undefined || unitLine.unitRate === undefined) return;
  const rate = round(unitLine.unitRate * OVERCHARGE, 5);
  unitLine.unitRate = rate;
  unitLine.amount = round(unitLine.units * rate, 2);
  const net = round(
    lines.filter((r) => r.kind !== 'vat').reduce((sum, r) => sum + (r.amount ?? 0), 0),
    2,
  );
  const vat = round((net * Number(values.vatRate)) / 100, 2);
  const vatLine = lines.find((r) => r.kind === 'vat');
  if (vatLine) vatLine.amount = vat;
  Object.assign(values, { unitRate: rate, netTotal: net, vatTotal: vat, grossTotal: round(net + vat, 2) });
  invoice.grossTotal = values.grossTotal;
  const month = account.months.find((m) => m.invoiceId === invoice._id);
  if (month) {
    month.cost = net;
    month.vat = vat;
  }
}

/** Capture's results for a bill read from a one-page PDF: each value with its text, and the meter's reads. */
function resultsOf(
  invoice: StoredItem,
  utilityType: UtilityType,
): InvoiceExtract & Omit<CaptureResults, 'multiInvoice'> {
  const values = valuesOf(invoice);
  const read: ExtractedValues = {};
  for (const [key, value] of Object.entries(values)) {
    read[key as InvoiceKey] = { value, text: String(value), page: 1, confidence: 99 };
  }
  const meterPointNumber = typeof values.meterPointNumber === 'string' ? values.meterPointNumber : undefined;
  const hasReads = typeof values.openingRead === 'number' && typeof values.closingRead === 'number';
  return {
    index: 0,
    pages: [1],
    method: 'generic',
    ...(typeof invoice.supplierId === 'string' ? { supplierId: invoice.supplierId } : {}),
    utilityType,
    values: read,
    rates: linesOf(invoice),
    multiMeter: { meters: [{ utilityType, index: 0, ...(meterPointNumber ? { meterPointNumber } : {}) }] },
    pageCount: 1,
    ocr: false,
    extractMeterValues: [],
    extractRates: [],
    extractReadings: hasReads
      ? [
          {
            invoiceIndex: 0,
            utilityType,
            meterIndex: 0,
            readings: [
              {
                ...(typeof values.meterSerialNumber === 'string'
                  ? { meterSerialNumber: values.meterSerialNumber }
                  : {}),
                openingRead: values.openingRead as number,
                closingRead: values.closingRead as number,
                readType: 'actual',
                consumption: values.consumption as number,
                date: String(values.endDate),
              },
            ],
          },
        ]
      : [],
  };
}

/** A bill that arrived as a PDF and was captured: not confirmed yet, its figures already in its month. */
function awaitReview(companyId: string, account: PlannedAccount, invoice: StoredItem): void {
  Object.assign(invoice, {
    status: 'captured',
    completed: false,
    source: 'upload',
    captureId: invoice._id,
    batchId: invoice._id,
    key: captureKey(companyId, invoice._id, String(invoice.fileName)),
    invoiceValidationId: invoice._id,
    pages: [1],
    results: resultsOf(invoice, account.type),
  });
  const month = account.months.find((m) => m.invoiceId === invoice._id);
  // Confirming the bill then finds itself already counted in the month and its roll-ups.
  if (month) month.invoiceIds = new Set([invoice._id]);
}

/**
 * Adds the reads to every bill and turns the latest months' bills into captured ones awaiting review;
 * answers those, oldest first. Runs before the roll-ups are summed, since an overcharged bill changes
 * its month's cost.
 */
export function finishInvoices(ctx: InvoiceFinishContext, accounts: readonly PlannedAccount[]): StoredItem[] {
  const recent = new Set(ctx.slots.slice(-REVIEW_MONTHS).map((s) => s.start));
  const latest = ctx.slots.at(-1)?.start;
  const overcharger = ctx.overcharge
    ? ctx.suppliers.find((s) => s.name === ctx.overcharge?.supplierName)
    : undefined;
  if (ctx.overcharge && !overcharger) throw new Error(`No supplier ${ctx.overcharge.supplierName}`);
  const contracted = new Set(ctx.contracts.filter((c) => c.item.status === 'active').map((c) => c.accountId));
  let overcharged = 0;
  const review: StoredItem[] = [];
  const byName = [...accounts].sort((a, b) => String(a.item.name).localeCompare(String(b.item.name)));
  for (const account of byName) {
    addReads(account, ctx.registers.get(account.item._id));
    for (const invoice of account.invoices) {
      if (!recent.has(String(invoice.invoiceStartDate))) continue;
      if (
        overcharger &&
        overcharged < (ctx.overcharge?.count ?? 0) &&
        invoice.invoiceStartDate === latest &&
        invoice.supplierId === overcharger.id &&
        contracted.has(account.item._id)
      ) {
        overcharge(account, invoice);
        overcharged++;
      }
      awaitReview(ctx.companyId, account, invoice);
      review.push(invoice);
    }
  }
  if (ctx.overcharge && overcharged < ctx.overcharge.count) {
    throw new Error(
      `Only ${overcharged} of ${ctx.overcharge.supplierName}'s latest bills can be overcharged`,
    );
  }
  return review.sort((a, b) => String(a.invoiceStartDate).localeCompare(String(b.invoiceStartDate)));
}

/**
 * The capture record of a bill awaiting review, as the capture worker leaves it: the document uploaded
 * by the demo's owner, read and done. A later event for its object finds it captured and leaves it be.
 */
export function captureRecordOf(invoice: StoredItem): StoredItem {
  return {
    _id: invoice._id,
    companyId: invoice.companyId,
    batchId: invoice.batchId,
    fileName: invoice.fileName,
    key: invoice.key,
    source: 'upload',
    userSub: invoice.createdBy,
    status: 'captured',
    invoiceIds: [invoice._id],
    pageCount: 1,
    ocr: false,
    createdAt: invoice.createdAt,
    updatedAt: invoice.updatedAt,
  };
}
