import { createHash } from 'node:crypto';
import type { CaptureResults, InvoiceExtract } from '../../shared/capture/model.ts';
import { safeFileName } from '../../shared/files/file-type.ts';
import { INVOICE_FILE_NAME_LIMIT } from '../../shared/files/invoice-file-name.ts';
import type { StoredItem } from '../core/data/item-repository.ts';

/** Documents over this size are refused, in the browser, the API and the capture worker alike. */
export const MAX_CAPTURE_BYTES = 20 * 1024 * 1024;

/** Where an invoice document lives in the uploads bucket; the capture worker reads ids back from it. */
export const captureKey = (companyId: string, captureId: string, fileName: string) =>
  `invoices/${companyId}/${captureId}/${safeFileName(fileName, 'invoice.pdf')}`;

const ID = /^[0-9a-f]{24}$/;

export function parseCaptureKey(
  key: string,
): { companyId: string; captureId: string; fileName: string } | undefined {
  const [root, companyId, captureId, ...rest] = key.split('/');
  if (root !== 'invoices' || !companyId || !captureId || !ID.test(captureId) || rest.length !== 1)
    return undefined;
  return { companyId, captureId, fileName: rest[0] as string };
}

/**
 * The first invoice of a document takes the capture's id; the others get ids derived from it, so a
 * capture run again writes the same items instead of new ones. The time part is kept, so they sort with it.
 */
export function invoiceIdFor(captureId: string, index: number): string {
  if (index === 0) return captureId;
  return (
    captureId.slice(0, 12) + createHash('sha256').update(`${captureId}#${index}`).digest('hex').slice(0, 12)
  );
}

const flat = (values: InvoiceExtract['values']): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v?.value ?? null]));

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The fields of an invoice item that come from its extraction: values flat for editing, results whole. */
export function invoiceFieldsOf(inv: InvoiceExtract, results: CaptureResults): Record<string, unknown> {
  const mine = <T extends { invoiceIndex: number }>(list: T[]) =>
    list.filter((m) => m.invoiceIndex === inv.index);
  const values = flat(inv.values);
  const gross = num(values.grossTotal);
  return {
    results: {
      ...inv,
      pageCount: results.pageCount,
      ocr: results.ocr,
      extractMeterValues: mine(results.extractMeterValues),
      extractRates: mine(results.extractRates),
      extractReadings: mine(results.extractReadings),
    },
    values,
    rates: inv.rates,
    pages: inv.pages,
    ...(inv.supplierId ? { supplierId: inv.supplierId } : {}),
    ...(inv.utilityType ? { utilityType: inv.utilityType } : {}),
    ...(str(values.invoiceNumber) ? { invoiceNumber: str(values.invoiceNumber) } : {}),
    ...(str(values.startDate) ? { invoiceStartDate: str(values.startDate) } : {}),
    ...(str(values.endDate) ? { invoiceEndDate: str(values.endDate) } : {}),
    ...(str(values.invoiceDate) ? { invoiceDate: str(values.invoiceDate) } : {}),
    ...(str(values.meterPointNumber) ? { meterPointNumber: str(values.meterPointNumber) } : {}),
    ...(gross !== undefined ? { grossTotal: gross } : {}),
    ...(str(values.currency) ? { currency: str(values.currency) } : {}),
    ...(str(values.supplierName) ? { supplierName: str(values.supplierName) } : {}),
    isCreditNote: gross !== undefined && gross < 0,
  };
}

export const DISPLAY_NAME_LIMIT = 120;

/** A validation item's title: cut at 120 characters plus an ellipsis (01 §5). */
export function displayNameOf(invoice: StoredItem): string {
  const parts = [str(invoice.invoiceNumber), str(invoice.fileName)].filter(Boolean);
  const name = parts.join(' · ') || 'Invoice';
  return name.length > DISPLAY_NAME_LIMIT ? `${name.slice(0, DISPLAY_NAME_LIMIT)}...` : name;
}

export const FILE_NAME_PART_LIMIT: number = INVOICE_FILE_NAME_LIMIT.default;

/**
 * A file name for a downloaded invoice: legal name, site name, period and number, with the legal and site
 * names cut at 40 characters each by default (01 §5), configurable per company.
 */
export function generatedFileName(
  invoice: StoredItem,
  names: { legalName?: string; siteName?: string },
  limit = FILE_NAME_PART_LIMIT,
): string {
  const cut = (s: string | undefined) => (s ? s.slice(0, limit).trim() : undefined);
  const parts = [
    cut(names.legalName),
    cut(names.siteName),
    str(invoice.invoiceStartDate) && str(invoice.invoiceEndDate)
      ? `${invoice.invoiceStartDate}-to-${invoice.invoiceEndDate}`
      : undefined,
    str(invoice.invoiceNumber),
  ].filter((p): p is string => Boolean(p));
  const original = str(invoice.fileName) ?? '';
  const ext = /\.(pdf|png|jpe?g|tiff?)$/i.exec(original)?.[0] ?? '.pdf';
  return parts.length > 0
    ? safeFileName(`${parts.join(' ')}${ext}`)
    : safeFileName(original, `invoice${ext}`);
}

/** The validation item of an invoice: same id, so either leads to the other without a lookup. */
export function validationItemFor(
  invoice: StoredItem,
  capture: StoredItem,
  status: 'pending' | 'error',
  now: string,
): StoredItem {
  return {
    _id: invoice._id,
    companyId: invoice.companyId,
    invoiceId: invoice._id,
    status,
    completed: false,
    hold: false,
    tags: [],
    ...(str(invoice.supplierId) ? { supplierId: str(invoice.supplierId) } : {}),
    ...(str(invoice.accountId) ? { accountId: str(invoice.accountId) } : {}),
    invoiceCapture: {
      _id: capture._id,
      userSub: str(capture.userSub),
      fileName: str(capture.fileName),
      source: str(capture.source),
    },
    displayName: displayNameOf(invoice),
    invoiceNumber: str(invoice.invoiceNumber),
    createdAt: str(invoice.createdAt) ?? now,
    updatedAt: now,
  };
}
