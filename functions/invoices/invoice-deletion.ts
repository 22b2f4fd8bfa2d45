import { applyInvoiceContribution, storedContributions } from '../accounts/index.ts';
import { announceFiguresChange } from '../analytics/index.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { withdrawInvoice } from './invoice-confirm-later.ts';
import {
  changeInvoice,
  changeValidation,
  putInvoiceNumber,
  removeInvoiceNumber,
} from './invoice-repository.ts';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Soft-deletes an invoice: it leaves the lists and the validation queues, and a confirmed invoice's
 * figures leave the account's data, until it is restored.
 */
export async function softDeleteInvoice(
  companyId: string,
  invoice: StoredItem,
  extra: Record<string, unknown> = {},
) {
  if (invoice.deleted === true) return invoice;
  const now = new Date().toISOString();
  if (invoice.completed === true) await withdrawInvoice(companyId, invoice);
  const changed = await changeInvoice(companyId, invoice._id, (current) => ({
    ...current,
    ...extra,
    deleted: true,
    deletedAt: now,
    updatedAt: now,
  }));
  const deleted = changed?.after ?? { ...invoice, ...extra, deleted: true, deletedAt: now, updatedAt: now };
  const number = str(invoice.invoiceNumber);
  if (number) await removeInvoiceNumber(companyId, number, invoice._id);
  await changeValidation(companyId, invoice._id, (validation) => ({
    ...validation,
    deleted: true,
    deletedAt: now,
    updatedAt: now,
  }));
  return deleted;
}

export async function restoreInvoice(companyId: string, invoice: StoredItem) {
  if (invoice.deleted !== true) return invoice;
  const now = new Date().toISOString();
  const restored: StoredItem = { ...invoice, deleted: false, updatedAt: now };
  delete restored.deletedAt;
  if (restored.completed === true && typeof restored.accountId === 'string') {
    const contributions = storedContributions(restored);
    const assetId = str(restored.contributionAssetId);
    for (const c of contributions) {
      await applyInvoiceContribution(companyId, restored.accountId, assetId, invoice._id, c, 1);
    }
    await announceFiguresChange(companyId, {
      accountId: restored.accountId,
      ...(assetId ? { assetId } : {}),
      months: contributions.map((c) => c.month),
    });
  }
  await changeInvoice(companyId, invoice._id, (current) => {
    const { deletedAt: _d, ...rest } = current;
    return { ...rest, _id: current._id, deleted: false, updatedAt: now };
  });
  const number = str(restored.invoiceNumber);
  if (number) await putInvoiceNumber(companyId, number, invoice._id);
  await changeValidation(companyId, invoice._id, (validation) => {
    const { deletedAt: _d, ...rest } = validation;
    return { ...rest, _id: validation._id, deleted: false, updatedAt: now };
  });
  return restored;
}
