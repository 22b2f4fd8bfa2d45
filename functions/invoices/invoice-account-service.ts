import { invoiceDownloadQuery } from '../../shared/schemas/queries.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { badRequest, notFound } from '../core/lib/errors.ts';
import type { OpContext, Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { confirmInvoice, withdrawInvoice } from './invoice-confirm-later.ts';
import { softDeleteInvoice } from './invoice-deletion-later.ts';
import { changeInvoice, getInvoice, toInvoice as storedInvoice } from './invoice-repository.ts';
import { invoiceDownload, stampInvoice } from './invoice-service.ts';

/**
 * An account's invoices and credit notes (02 §7 Accounts). The route has checked the caller's access to
 * the account; the invoice must belong to it, or it is not found.
 */
async function ofAccount(ctx: WithParams<'id'>, id: string, creditNote?: boolean): Promise<StoredItem> {
  const invoice = await getInvoice(ctx.caller.companyId, id);
  if (!invoice || invoice.accountId !== ctx.params.id)
    throw notFound(creditNote ? 'Credit note not found' : 'Invoice not found');
  if (creditNote !== undefined && (invoice.isCreditNote === true) !== creditNote) {
    throw badRequest(
      creditNote ? 'This is an invoice, not a credit note' : 'This is a credit note, not an invoice',
    );
  }
  return invoice;
}

const MONEY_KEYS = ['netTotal', 'vatTotal', 'grossTotal', 'standingCharge', 'climateChangeLevy'];

/**
 * Turns an invoice into a credit note or back. A credit note's amounts are negative, so it offsets what
 * it credits; a confirmed one is taken out of the account's data and put back with its new sign.
 */
async function convert(ctx: OpContext, invoice: StoredItem, toCreditNote: boolean): Promise<StoredItem> {
  const companyId = ctx.caller.companyId;
  const wasConfirmed = invoice.completed === true;
  if (wasConfirmed) await withdrawInvoice(companyId, invoice);
  // The amounts as stored when written, so a value corrected at the same moment is converted too.
  const changed = await changeInvoice(companyId, invoice._id, (current) => {
    const values = { ...storedInvoice(current).values };
    for (const k of MONEY_KEYS) {
      const v = values[k];
      if (typeof v === 'number') values[k] = toCreditNote ? -Math.abs(v) : Math.abs(v);
    }
    const gross = values.grossTotal;
    return {
      ...current,
      values,
      isCreditNote: toCreditNote,
      ...(typeof gross === 'number' ? { grossTotal: gross } : {}),
      completed: false,
      status: wasConfirmed ? 'captured' : current.status,
      contributions: [],
      updatedAt: new Date().toISOString(),
    };
  });
  if (!changed) throw notFound();
  const converted = changed.after;
  const result = wasConfirmed ? await confirmInvoice(companyId, converted, ctx.caller.sub) : converted;
  await writeActivity(ctx.caller, { type: 'update', model: 'invoices', modelId: invoice._id });
  return result;
}

const invoiceDownloadOp = operation(
  { params: ['invoiceId', 'id'], query: invoiceDownloadQuery },
  async (ctx): Promise<OpResult> => {
    const invoice = await ofAccount(ctx, ctx.params.invoiceId);
    const { preview, stamped } = ctx.query;
    return { body: await invoiceDownload(ctx.caller.companyId, invoice, preview, stamped) };
  },
);

const invoiceDelete = operation({ params: ['invoiceId', 'id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await ofAccount(ctx, ctx.params.invoiceId);
  const deleted = await softDeleteInvoice(ctx.caller.companyId, invoice);
  await writeActivity(ctx.caller, { type: 'delete', model: 'invoices', modelId: invoice._id });
  return { body: deleted };
});

const toCreditNote = operation(
  { params: ['invoiceId', 'id'] },
  async (ctx): Promise<OpResult> => ({
    body: await convert(ctx, await ofAccount(ctx, ctx.params.invoiceId, false), true),
  }),
);

const toInvoice = operation(
  { params: ['creditNoteId', 'id'] },
  async (ctx): Promise<OpResult> => ({
    body: await convert(ctx, await ofAccount(ctx, ctx.params.creditNoteId, true), false),
  }),
);

const creditNoteStamp = operation({ params: ['creditNoteId', 'id'] }, async (ctx): Promise<OpResult> => {
  const note = await ofAccount(ctx, ctx.params.creditNoteId, true);
  const stamped = await stampInvoice(ctx.caller.companyId, note, ctx.caller.email ?? ctx.caller.sub);
  const download = await invoiceDownload(ctx.caller.companyId, stamped, false, true);
  return { body: { ...stamped, downloadUrl: download.url } };
});

const creditNoteDownload = operation(
  { params: ['creditNoteId', 'id'], query: invoiceDownloadQuery },
  async (ctx): Promise<OpResult> => {
    const note = await ofAccount(ctx, ctx.params.creditNoteId, true);
    const { preview, stamped } = ctx.query;
    return { body: await invoiceDownload(ctx.caller.companyId, note, preview, stamped) };
  },
);

export const INVOICE_ACCOUNT_OPERATIONS: Operations = {
  'accounts.invoiceDownload': invoiceDownloadOp,
  'accounts.invoiceDelete': invoiceDelete,
  'accounts.toCreditNote': toCreditNote,
  'accounts.toInvoice': toInvoice,
  'accounts.creditNoteStamp': creditNoteStamp,
  'accounts.creditNoteDownload': creditNoteDownload,
};
