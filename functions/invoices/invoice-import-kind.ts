import type { Caller } from '../../shared/access/caller.ts';
import type { ImportRow } from '../../shared/schemas/register-imports.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { putNewItems } from '../core/imports/import-batch-repository.ts';
import {
  type ImportBatchContext,
  type PlannedItem,
  type RollbackRules,
  RowProblems,
} from '../core/imports/register-import-service.ts';
import { inPool } from '../core/lib/in-pool.ts';
import {
  importedInvoice,
  invoiceRowValues,
  NO_ACCOUNT,
  writableMeterPoints,
} from './invoice-import-service.ts';
import { validationItemFor } from './invoice-records.ts';
import { changeValidation, removeInvoiceNumber, validationsRef } from './invoice-repository.ts';

/**
 * The invoices import of the wizard (values without PDFs): each row a bill judged as POST /invoices/import
 * judges it, matched to a meter whose bills the caller may write. The bills go through validation as
 * captured ones do; a rollback takes back the ones nobody has confirmed or changed since.
 */

export async function planInvoiceRows(
  caller: Caller,
  rows: readonly ImportRow[],
  batch: ImportBatchContext,
): Promise<{
  problems: RowProblems;
  items: PlannedItem[];
  written: (items: readonly StoredItem[]) => Promise<void>;
}> {
  const companyId = caller.companyId;
  const byMeterPoint = await writableMeterPoints(caller);
  const problems = new RowProblems();
  const items: PlannedItem[] = [];
  const seen = new Map<string, number>();
  for (const { row, values } of rows) {
    const mpn = (values.meterPointNumber ?? '').replace(/\s/g, '');
    const account = byMeterPoint.get(mpn) ?? byMeterPoint.get(mpn.slice(-13));
    if (!account) problems.add(row, 'meterPointNumber', NO_ACCOUNT);
    const out = invoiceRowValues(row, values, problems);
    const key = `${account?._id ?? mpn}|${String(out.invoiceNumber).toLowerCase()}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) problems.add(row, 'invoiceNumber', `The same invoice as row ${earlier}`);
    seen.set(key, earlier ?? row);
    if (problems.has(row) || !account) continue;
    const base = batch.stamp({});
    const item = importedInvoice(
      {
        _id: base._id,
        companyId,
        batchId: batch.batchId,
        createdBy: caller.sub,
        createdAt: batch.importedAt,
        updatedAt: batch.importedAt,
      },
      batch.fileName ?? 'import.csv',
      row,
      out,
      account._id,
    );
    items.push({ row, name: String(out.invoiceNumber), item });
  }
  const written = async (invoices: readonly StoredItem[]) => {
    const ref = validationsRef(companyId);
    await putNewItems(
      invoices.map((invoice) => ({
        ref,
        item: validationItemFor(
          invoice,
          { _id: invoice._id, userSub: caller.sub, source: 'import' },
          'pending',
          batch.importedAt,
        ),
      })),
    );
    await sendToQueue(
      'validation',
      invoices.map((i) => ({ companyId, invoiceId: i._id })),
    );
  };
  return { problems, items, written };
}

export const INVOICE_ROLLBACK: RollbackRules = {
  nameOf: (i) => String(i.invoiceNumber ?? i._id),
  keepers: async () => new Map(),
  // Validation stamps the bill as it judges it; only a person's change (an edit, a confirmation) keeps it.
  unchanged: (i, batch) =>
    i.completed !== true && (i.updatedAt === batch.importedAt || i.updatedAt === i.validatedAt),
  removed: async (companyId, invoices) => {
    await inPool(invoices, 8, async (invoice) => {
      const now = new Date().toISOString();
      await changeValidation(companyId, invoice._id, (v) =>
        v.deleted === true ? undefined : { ...v, deleted: true, deletedAt: now, updatedAt: now },
      );
      if (typeof invoice.invoiceNumber === 'string')
        await removeInvoiceNumber(companyId, invoice.invoiceNumber, invoice._id);
    });
  },
};
