import * as z from 'zod';
import { INVOICE_KEYS, type InvoiceKey, RATE_KINDS } from '../../shared/capture/model.ts';
import { findAccount } from '../accounts/index.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { createLogger } from '../core/lib/logger.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import { displayNameOf, validationItemFor } from './invoice-records.ts';
import {
  getValidation,
  putInvoice,
  putInvoiceNumber,
  putValidation,
  removeInvoiceNumber,
} from './invoice-repository.ts';

const log = createLogger({ service: 'voltfolio', fn: 'invoices' });

const DATE_KEYS = new Set<InvoiceKey>(['invoiceDate', 'dueDate', 'startDate', 'endDate']);
const NUMBER_KEYS = new Set<InvoiceKey>([
  'openingRead',
  'closingRead',
  'consumption',
  'unitRate',
  'standingCharge',
  'climateChangeLevy',
  'netTotal',
  'vatRate',
  'vatTotal',
  'grossTotal',
]);

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

export type InvoiceValue = string | number | boolean | null;

/** Each key's value checked by its type, as a field error a person can fix. */
export function valueErrors(values: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!(INVOICE_KEYS as readonly string[]).includes(key)) {
      errors[key] = 'Not a value an invoice has';
      continue;
    }
    if (value === null) continue;
    const k = key as InvoiceKey;
    if (
      DATE_KEYS.has(k) &&
      (typeof value !== 'string' || !isoDate.test(value) || Number.isNaN(Date.parse(value)))
    )
      errors[key] = 'Must be a date as YYYY-MM-DD';
    else if (NUMBER_KEYS.has(k) && (typeof value !== 'number' || !Number.isFinite(value)))
      errors[key] = 'Must be a number';
    else if (k === 'isEstimate' && typeof value !== 'boolean') errors[key] = 'Must be true or false';
    else if (!DATE_KEYS.has(k) && !NUMBER_KEYS.has(k) && k !== 'isEstimate' && typeof value !== 'string')
      errors[key] = 'Must be text';
    else if (typeof value === 'string' && value.length > 300) errors[key] = 'Must be 300 characters or fewer';
  }
  if (
    typeof values.startDate === 'string' &&
    typeof values.endDate === 'string' &&
    !errors.startDate &&
    !errors.endDate &&
    values.endDate < values.startDate
  )
    errors.endDate = 'The period must end on or after its start';
  return errors;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The invoice's own fields that mirror its values, kept in step so lists and filters can use them. */
function mirrored(values: Record<string, unknown>): Record<string, unknown> {
  const gross = typeof values.grossTotal === 'number' ? values.grossTotal : undefined;
  return {
    invoiceNumber: str(values.invoiceNumber),
    invoiceStartDate: str(values.startDate),
    invoiceEndDate: str(values.endDate),
    invoiceDate: str(values.invoiceDate),
    meterPointNumber: str(values.meterPointNumber),
    grossTotal: gross,
  };
}

/**
 * Merges corrected values into an invoice (null clears one), keeps the mirrored fields and the invoice
 * number index in step, and queues the invoice for validation again: a change may fix or break a check.
 */
export async function applyValues(
  companyId: string,
  invoice: StoredItem,
  changes: Record<string, unknown>,
  userSub: string,
): Promise<StoredItem> {
  const errors = valueErrors(changes);
  if (Object.keys(errors).length > 0)
    throw formError(Object.fromEntries(Object.entries(errors).map(([k, v]) => [`values.${k}`, v])));
  const before = (invoice.values ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = { ...before };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete values[k];
    else values[k] = v;
  }
  const periodErrors = valueErrors({ startDate: values.startDate ?? null, endDate: values.endDate ?? null });
  if (periodErrors.endDate) throw formError({ 'values.endDate': periodErrors.endDate });

  const now = new Date().toISOString();
  const oldNumber = str(invoice.invoiceNumber);
  const updated: StoredItem = {
    ...invoice,
    values,
    ...mirrored(values),
    editedBy: userSub,
    status:
      invoice.status === 'completed' ? 'completed' : invoice.status === 'error' ? 'manual' : invoice.status,
    updatedAt: now,
  };
  for (const [k, v] of Object.entries(updated)) if (v === undefined) delete updated[k];
  await putInvoice(companyId, updated);
  const newNumber = str(updated.invoiceNumber);
  if (oldNumber && oldNumber !== newNumber) await removeInvoiceNumber(companyId, oldNumber, invoice._id);
  if (newNumber && updated.deleted !== true) await putInvoiceNumber(companyId, newNumber, invoice._id);
  await queueValidation(companyId, updated);
  return updated;
}

/** What a person may change on an invoice: its values and the account it belongs to. */
export const invoiceEditSchema = z.object({
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}),
  accountId: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'Must be a valid id')
    .nullable()
    .optional(),
});
export type InvoiceEdit = z.infer<typeof invoiceEditSchema>;

/**
 * Applies a person's edit: the account (checked to exist; null takes it off) and the values, then
 * validation again, since either can change a check's result.
 */
export async function editInvoice(
  companyId: string,
  invoice: StoredItem,
  edit: InvoiceEdit,
  userSub: string,
): Promise<StoredItem> {
  let next = invoice;
  if (edit.accountId !== undefined) {
    if (edit.accountId) {
      if (!(await findAccount(companyId, edit.accountId)))
        throw formError({ accountId: 'Account not found' });
      next = { ...invoice, accountId: edit.accountId, accountChosenBy: userSub };
    } else {
      next = { ...invoice, accountChosenBy: userSub };
      delete next.accountId;
    }
  }
  return applyValues(companyId, next, edit.values, userSub);
}

/** Puts the invoice back in the validation queue as pending, and asks the worker to check it. */
export async function queueValidation(companyId: string, invoice: StoredItem): Promise<void> {
  const now = new Date().toISOString();
  const existing = await getValidation(companyId, invoice._id);
  const base =
    existing ?? validationItemFor(invoice, { _id: String(invoice.captureId ?? invoice._id) }, 'pending', now);
  await putValidation(companyId, {
    ...base,
    status: base.completed === true ? base.status : 'pending',
    displayName: displayNameOf(invoice),
    invoiceNumber: str(invoice.invoiceNumber),
    updatedAt: now,
  });
  await sendToQueue('validation', [{ companyId, invoiceId: invoice._id }]);
  await publishToCompany(
    companyId,
    { type: 'invoice.updated', keys: [`/invoices/${invoice._id}`] },
    log,
  ).catch(() => undefined);
}

export const rateInputSchema = z.object({
  description: z.string().trim().min(1, 'This field is required').max(200),
  kind: z.enum(RATE_KINDS).default('unit'),
  units: z.number({ error: 'Must be a number' }).finite().optional(),
  unit: z.string().trim().max(20).optional(),
  unitRate: z.number({ error: 'Must be a number' }).finite().optional(),
  amount: z.number({ error: 'Must be a number' }).finite().optional(),
  startDate: z.string().regex(isoDate, 'Must be a date as YYYY-MM-DD').optional(),
  endDate: z.string().regex(isoDate, 'Must be a date as YYYY-MM-DD').optional(),
});

/** Adds a charge line typed in by a person. */
export async function addRate(companyId: string, invoice: StoredItem, body: unknown): Promise<StoredItem> {
  const rate = { _id: newId(), ...parseOrThrow(rateInputSchema, body) };
  const rates = Array.isArray(invoice.rates) ? [...invoice.rates, rate] : [rate];
  const updated = { ...invoice, rates, updatedAt: new Date().toISOString() };
  await putInvoice(companyId, updated);
  await queueValidation(companyId, updated);
  return updated;
}

export async function deleteRate(
  companyId: string,
  invoice: StoredItem,
  rateId: string,
): Promise<StoredItem> {
  const rates = (Array.isArray(invoice.rates) ? invoice.rates : []) as { _id?: string }[];
  const kept = rates.filter((r) => r._id !== rateId);
  if (kept.length === rates.length) throw notFound('Rate not found');
  const updated = { ...invoice, rates: kept, updatedAt: new Date().toISOString() };
  await putInvoice(companyId, updated);
  await queueValidation(companyId, updated);
  return updated;
}
