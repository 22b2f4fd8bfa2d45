import type { Caller } from '../../shared/access/caller.ts';
import { parseDate } from '../../shared/capture/date-text.ts';
import { INVOICE_IMPORT_COLUMNS } from '../../shared/imports/register-columns.ts';
import { importFileQuery } from '../../shared/schemas/import-file-query.ts';
import { findResource } from '../../shared/system/resources.ts';
import { allAccounts } from '../accounts/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { importFileOf, importRowsOf, RowProblems } from '../core/imports/register-import-service.ts';
import { badRequest } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { softDeleteInvoice } from './invoice-deletion.ts';
import { validationItemFor } from './invoice-records.ts';
import { invoicesRef, putInvoice, putValidation, queryIndexed } from './invoice-repository.ts';

function invoicesResource() {
  const r = findResource('invoices');
  if (!r) throw new Error('The invoices resource is not declared');
  return r;
}

const NUMBER_FIELDS = ['consumption', 'netTotal', 'vatTotal', 'grossTotal'];
const DATE_FIELDS = ['invoiceDate', 'startDate', 'endDate'];

/** A number as spreadsheets write money: "£1,234.56", "1234.56", "(12.00)" for a credit. */
function spreadsheetNumber(text: string): number | undefined {
  const negative = /^\(.*\)$/.test(text.trim()) || text.trim().startsWith('-');
  const digits = text.replace(/[£,\s()]/g, '').replace(/^-/, '');
  if (!/^\d+(\.\d+)?$/.test(digits)) return undefined;
  return negative ? -Number(digits) : Number(digits);
}

/**
 * Meters whose bills the caller may write, by meter point number: another meter reads exactly as an
 * unknown number, so an import can neither place a bill out of the caller's reach nor tell which exist.
 */
export async function writableMeterPoints(caller: Caller): Promise<Map<string, StoredItem>> {
  const companyId = caller.companyId;
  const accounts = (await allAccounts(companyId)).filter((a) => a.deleted !== true);
  const resolver = new LineageResolver(companyId, caller);
  const byMeterPoint = new Map<string, StoredItem>();
  for (const a of accounts) {
    if (typeof a.meterPointNumber !== 'string' || a.parentAccountId) continue;
    if (!(await mayAccessItem(invoicesResource(), caller, { _id: '', accountId: a._id }, 'write', resolver)))
      continue;
    byMeterPoint.set(a.meterPointNumber, a);
  }
  return byMeterPoint;
}

export const NO_ACCOUNT = 'No account has this meter point number';

/** A row's values as an invoice holds them: dates as ISO, amounts as numbers; problems by field. */
export function invoiceRowValues(
  row: number,
  values: Readonly<Record<string, string>>,
  problems: RowProblems,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  out.meterPointNumber = (values.meterPointNumber ?? '').replace(/\s/g, '');
  out.invoiceNumber = values.invoiceNumber ?? '';
  if (values.consumptionUnit) out.consumptionUnit = values.consumptionUnit;
  for (const f of DATE_FIELDS) {
    const v = values[f];
    if (v === undefined) continue;
    const iso = parseDate(v);
    if (!iso) problems.add(row, f, 'Must be a date such as 31/01/2026 or 2026-01-31');
    else out[f] = iso;
  }
  for (const f of NUMBER_FIELDS) {
    const v = values[f];
    if (v === undefined) continue;
    const n = spreadsheetNumber(v);
    if (n === undefined) problems.add(row, f, 'Must be a number');
    else out[f] = n;
  }
  if (typeof out.startDate === 'string' && typeof out.endDate === 'string' && out.endDate < out.startDate)
    problems.add(row, 'endDate', 'The period must end on or after its start');
  return out;
}

/** An imported bill as stored, before validation judges it. */
export function importedInvoice(
  base: {
    _id: string;
    companyId: string;
    batchId: string;
    createdBy: string;
    createdAt: string;
    updatedAt: string;
  },
  fileName: string,
  row: number,
  values: Record<string, string | number>,
  accountId: string | undefined,
): StoredItem {
  const gross = typeof values.grossTotal === 'number' ? values.grossTotal : undefined;
  return {
    ...base,
    fileName,
    source: 'import',
    importRow: row,
    status: 'captured',
    accountId,
    values,
    rates: [],
    invoiceNumber: String(values.invoiceNumber),
    invoiceStartDate: values.startDate,
    invoiceEndDate: values.endDate,
    meterPointNumber: values.meterPointNumber,
    ...(gross !== undefined ? { grossTotal: gross } : {}),
    isCreditNote: gross !== undefined && gross < 0,
    completed: false,
    invoiceValidationId: base._id,
  };
}

/**
 * POST /invoices/import: a CSV of bills, each matched to an account by its meter point number. All rows
 * are checked before any is written, so a file with a bad row imports nothing and says which. Imported
 * bills go through validation like captured ones, in one batch that can be rolled back.
 */
const importInvoices = operation({ query: importFileQuery }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const file = importFileOf(ctx);
  const rows = importRowsOf(file.text, INVOICE_IMPORT_COLUMNS);
  const byMeterPoint = await writableMeterPoints(ctx.caller);
  const problems = new RowProblems();
  const parsed = rows.map(({ row, values }) => {
    const mpn = (values.meterPointNumber ?? '').replace(/\s/g, '');
    const account = byMeterPoint.get(mpn) ?? byMeterPoint.get(mpn.slice(-13));
    if (!account) problems.add(row, 'meterPointNumber', NO_ACCOUNT);
    return { row, values: invoiceRowValues(row, values, problems), account };
  });
  problems.throwIfAny();

  const batchId = newId();
  const now = new Date().toISOString();
  const items: { row: number; _id: string; name: string }[] = [];
  for (const r of parsed) {
    const id = newId();
    const invoice = importedInvoice(
      { _id: id, companyId, batchId, createdBy: ctx.caller.sub, createdAt: now, updatedAt: now },
      file.fileName ?? 'import.csv',
      r.row,
      r.values,
      r.account?._id,
    );
    await putInvoice(companyId, invoice);
    await putValidation(
      companyId,
      validationItemFor(invoice, { _id: id, userSub: ctx.caller.sub, source: 'import' }, 'pending', now),
    );
    items.push({ row: r.row, _id: id, name: String(r.values.invoiceNumber) });
  }
  await sendToQueue(
    'validation',
    items.map((i) => ({ companyId, invoiceId: i._id })),
  );
  await writeActivity(ctx.caller, { type: 'import', model: 'invoices', modelId: batchId });
  return {
    status: 201,
    body: { batchId, model: 'invoices', fileName: file.fileName, created: items.length, items },
  };
});

/**
 * POST /invoices/import-rollback: the invoices the import wrote leave (a confirmed one takes its figures
 * with it). Only imported invoices are touched: an upload or e-mail batch is not an import, and a document
 * uploaded into an import's batch stays.
 */
const importRollback = operation({}, async (ctx): Promise<OpResult> => {
  // Its schema is of zod's full build, loaded with the first rollback rather than at start.
  const { importRollbackSchema } = await import('./invoice-inputs.ts');
  const { batchId } = parseOrThrow(importRollbackSchema, ctx.body);
  const companyId = ctx.caller.companyId;
  // Bills the caller may not write are neither touched nor mentioned: to them the batch holds only the rest.
  const resolver = new LineageResolver(companyId, ctx.caller);
  const batch: StoredItem[] = [];
  for (const invoice of await queryIndexed(invoicesRef(companyId), 'batchId', batchId)) {
    if (await mayAccessItem(invoicesResource(), ctx.caller, invoice, 'write', resolver)) batch.push(invoice);
  }
  const imported = batch.filter((invoice) => invoice.source === 'import');
  if (imported.length === 0) throw badRequest('No import with this batch id was found.');
  let removed = 0;
  let alreadyRemoved = 0;
  for (const invoice of imported) {
    if (invoice.deleted === true) {
      alreadyRemoved++;
      continue;
    }
    await softDeleteInvoice(companyId, invoice, { rolledBack: batchId });
    removed++;
  }
  const kept = batch
    .filter((invoice) => invoice.source !== 'import')
    .map((invoice) => ({
      _id: invoice._id,
      name: String(invoice.fileName ?? invoice._id),
      reason: 'Not written by the import (uploaded into its batch)',
    }));
  await writeActivity(ctx.caller, { type: 'rollback', model: 'invoices', modelId: batchId });
  return { body: { batchId, model: 'invoices', removed, alreadyRemoved, kept } };
});

export const INVOICE_IMPORT_OPERATIONS: Operations = {
  'invoices.import': importInvoices,
  'invoices.importRollback': importRollback,
};
