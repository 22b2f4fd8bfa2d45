import type * as z from 'zod';
import { INVOICE_KEYS, type InvoiceKey } from '../../shared/capture/model.ts';
import { findAccount } from '../accounts/index.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { createLogger } from '../core/lib/logger.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { invoiceEditSchema } from './invoice-inputs.ts';
import { displayNameOf, validationItemFor } from './invoice-records.ts';
import {
  changeInvoice,
  changeValidation,
  createInvoice,
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
  /** The account a person chose with the values: null takes the invoice off its account. */
  account?: { accountId: string | null },
): Promise<StoredItem> {
  const errors = valueErrors(changes);
  if (Object.keys(errors).length > 0)
    throw formError(Object.fromEntries(Object.entries(errors).map(([k, v]) => [`values.${k}`, v])));
  let oldNumber: string | undefined;
  // Worked out from the invoice as stored when written, so an edit made at the same moment (a rate, a
  // stamp, the validation's result) is kept and only the values named here change.
  const edited = (current: StoredItem): StoredItem => {
    const base: StoredItem = account ? { ...current, accountChosenBy: userSub } : { ...current };
    if (account?.accountId) base.accountId = account.accountId;
    else if (account) delete base.accountId;
    const values: Record<string, unknown> = { ...objectOf(base.values) };
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) delete values[k];
      else values[k] = v;
    }
    const periodErrors = valueErrors({
      startDate: values.startDate ?? null,
      endDate: values.endDate ?? null,
    });
    if (periodErrors.endDate) throw formError({ 'values.endDate': periodErrors.endDate });
    oldNumber = str(current.invoiceNumber);
    const updated: StoredItem = {
      ...base,
      values,
      ...mirrored(values),
      editedBy: userSub,
      status: base.status === 'completed' ? 'completed' : base.status === 'error' ? 'manual' : base.status,
      updatedAt: new Date().toISOString(),
    };
    for (const [k, v] of Object.entries(updated)) if (v === undefined) delete updated[k];
    return updated;
  };
  const changed = await changeInvoice(companyId, invoice._id, edited);
  let updated: StoredItem;
  if (changed) updated = changed.after;
  else {
    // A new invoice (a manual upload) is written whole, once.
    updated = edited(invoice);
    oldNumber = undefined;
    await createInvoice(companyId, updated);
  }
  const newNumber = str(updated.invoiceNumber);
  if (oldNumber && oldNumber !== newNumber) await removeInvoiceNumber(companyId, oldNumber, invoice._id);
  if (newNumber && updated.deleted !== true) await putInvoiceNumber(companyId, newNumber, invoice._id);
  await queueValidation(companyId, updated);
  return updated;
}

/** What a person may change on an invoice: its values and the account it belongs to. */
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
  if (edit.accountId && !(await findAccount(companyId, edit.accountId)))
    throw formError({ accountId: 'Account not found' });
  return applyValues(
    companyId,
    invoice,
    edit.values,
    userSub,
    edit.accountId === undefined ? undefined : { accountId: edit.accountId },
  );
}

/** Puts the invoice back in the validation queue as pending, and asks the worker to check it. */
export async function queueValidation(companyId: string, invoice: StoredItem): Promise<void> {
  const now = new Date().toISOString();
  const pending = (base: StoredItem): StoredItem => ({
    ...base,
    status: base.completed === true ? base.status : 'pending',
    displayName: displayNameOf(invoice),
    invoiceNumber: str(invoice.invoiceNumber),
    updatedAt: now,
  });
  // The validation as stored when written: tags, comments or a hold set meanwhile stay.
  const changed = await changeValidation(companyId, invoice._id, pending);
  if (!changed) {
    await putValidation(
      companyId,
      pending(validationItemFor(invoice, { _id: String(invoice.captureId ?? invoice._id) }, 'pending', now)),
    );
  }
  await sendToQueue('validation', [{ companyId, invoiceId: invoice._id }]);
  await publishToCompany(
    companyId,
    { type: 'invoice.updated', keys: [`/invoices/${invoice._id}`] },
    log,
  ).catch(() => undefined);
}

/** Adds a charge line typed in by a person. */
export async function addRate(companyId: string, invoice: StoredItem, body: unknown): Promise<StoredItem> {
  // Its schema is of zod's full build, loaded with the first charge line rather than at start.
  const { rateInputSchema } = await import('./invoice-inputs.ts');
  const rate = { _id: newId(), ...parseOrThrow(rateInputSchema, body) };
  const changed = await changeInvoice(companyId, invoice._id, (current) => ({
    ...current,
    rates: Array.isArray(current.rates) ? [...current.rates, rate] : [rate],
    updatedAt: new Date().toISOString(),
  }));
  if (!changed) throw notFound();
  await queueValidation(companyId, changed.after);
  return changed.after;
}

export async function deleteRate(
  companyId: string,
  invoice: StoredItem,
  rateId: string,
): Promise<StoredItem> {
  const changed = await changeInvoice(companyId, invoice._id, (current) => {
    const rates: unknown[] = Array.isArray(current.rates) ? current.rates : [];
    const kept = rates.filter((r) => objectOf(r)._id !== rateId);
    if (kept.length === rates.length) throw notFound('Rate not found');
    return { ...current, rates: kept, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  await queueValidation(companyId, changed.after);
  return changed.after;
}
