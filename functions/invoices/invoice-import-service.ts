import * as z from 'zod';
import { parseDate } from '../../shared/capture/date-text.ts';
import type { ImportColumn } from '../../shared/schemas/register-imports.ts';
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
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { validationItemFor } from './invoice-records.ts';
import { invoicesRef, putInvoice, putValidation, queryIndexed } from './invoice-repository.ts';
import { softDeleteInvoice } from './invoice-service.ts';

function invoicesResource() {
  const r = findResource('invoices');
  if (!r) throw new Error('The invoices resource is not declared');
  return r;
}

/** The columns of an invoice import: bills already received elsewhere, one row each. */
export const INVOICE_IMPORT_COLUMNS: readonly ImportColumn[] = [
  {
    field: 'meterPointNumber',
    aliases: ['mpan', 'mprn', 'meterpointnumber', 'meterpoint', 'spid'],
    required: true,
  },
  {
    field: 'invoiceNumber',
    aliases: ['invoicenumber', 'invoiceno', 'invoice', 'billnumber'],
    required: true,
  },
  { field: 'invoiceDate', aliases: ['invoicedate', 'taxpoint', 'billdate'] },
  { field: 'startDate', aliases: ['startdate', 'periodstart', 'from'], required: true },
  { field: 'endDate', aliases: ['enddate', 'periodend', 'to'], required: true },
  { field: 'consumption', aliases: ['consumption', 'units', 'kwh'] },
  { field: 'consumptionUnit', aliases: ['consumptionunit', 'unit'] },
  { field: 'netTotal', aliases: ['nettotal', 'net', 'netamount'] },
  { field: 'vatTotal', aliases: ['vattotal', 'vat', 'vatamount'] },
  { field: 'grossTotal', aliases: ['grosstotal', 'total', 'gross', 'amountdue'], required: true },
];

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
 * POST /invoices/import: a CSV of bills, each matched to an account by its meter point number. All rows
 * are checked before any is written, so a file with a bad row imports nothing and says which. Imported
 * bills go through validation like captured ones, in one batch that can be rolled back.
 */
const importInvoices = async (ctx: OpContext): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const file = importFileOf(ctx);
  const rows = importRowsOf(file.text, INVOICE_IMPORT_COLUMNS);
  const accounts = (await allAccounts(companyId)).filter((a) => a.deleted !== true);
  // Only meters whose bills the caller may write are matched: another meter reads exactly as an unknown
  // number, so an import can neither place a bill out of the caller's reach nor tell which numbers exist.
  const resolver = new LineageResolver(companyId, ctx.caller);
  const byMeterPoint = new Map<string, StoredItem>();
  for (const a of accounts) {
    if (typeof a.meterPointNumber !== 'string' || a.parentAccountId) continue;
    if (
      !(await mayAccessItem(invoicesResource(), ctx.caller, { _id: '', accountId: a._id }, 'write', resolver))
    )
      continue;
    byMeterPoint.set(a.meterPointNumber, a);
  }
  const problems = new RowProblems();
  const parsed = rows.map(({ row, values }) => {
    const out: Record<string, string | number> = {};
    const mpn = (values.meterPointNumber ?? '').replace(/\s/g, '');
    const account = byMeterPoint.get(mpn) ?? byMeterPoint.get(mpn.slice(-13));
    if (!account) problems.add(row, 'meterPointNumber', 'No account has this meter point number');
    out.meterPointNumber = mpn;
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
    return { row, values: out, account };
  });
  problems.throwIfAny();

  const batchId = newId();
  const now = new Date().toISOString();
  const items: { row: number; _id: string; name: string }[] = [];
  for (const r of parsed) {
    const id = newId();
    const gross = typeof r.values.grossTotal === 'number' ? r.values.grossTotal : undefined;
    const invoice: StoredItem = {
      _id: id,
      companyId,
      batchId,
      fileName: file.fileName ?? 'import.csv',
      source: 'import',
      importRow: r.row,
      status: 'captured',
      accountId: r.account?._id,
      values: r.values,
      rates: [],
      invoiceNumber: String(r.values.invoiceNumber),
      invoiceStartDate: r.values.startDate,
      invoiceEndDate: r.values.endDate,
      meterPointNumber: r.values.meterPointNumber,
      ...(gross !== undefined ? { grossTotal: gross } : {}),
      isCreditNote: gross !== undefined && gross < 0,
      completed: false,
      invoiceValidationId: id,
      createdBy: ctx.caller.sub,
      createdAt: now,
      updatedAt: now,
    };
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
};

const rollbackSchema = z.object({ batchId: z.string().regex(/^[0-9a-f]{24}$/, 'Must be a valid id') });

/**
 * POST /invoices/import-rollback: the invoices the import wrote leave (a confirmed one takes its figures
 * with it). Only imported invoices are touched: an upload or e-mail batch is not an import, and a document
 * uploaded into an import's batch stays.
 */
const importRollback = async (ctx: OpContext): Promise<OpResult> => {
  const { batchId } = parseOrThrow(rollbackSchema, ctx.body);
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
};

export const INVOICE_IMPORT_OPERATIONS: Operations = {
  'invoices.import': importInvoices,
  'invoices.importRollback': importRollback,
};
