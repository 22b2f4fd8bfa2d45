import { findResource } from '../../shared/system/resources.ts';
import { mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { badRequest, forbidden, readOnly } from '../core/lib/errors.ts';
import { parseOrThrow, refuseOtherFields } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { editInvoice } from './invoice-edit.ts';
import { invoiceFor } from './invoice-service.ts';

/** The fields of PATCH /invoices/{id}: everything else has an action of its own. */
const EDITABLE = ['values', 'accountId'];

/** Where to go instead, for the fields an invoice keeps in step with the account's data and its validation. */
const ELSEWHERE: Record<string, string> = {
  status: 'The status follows capture, validation and confirmation; confirm the invoice to complete it',
  completed: 'Confirm the invoice to complete it',
  isCreditNote: 'Turn the invoice into a credit note (or back) from its account',
  deleted: 'Delete or restore the invoice instead',
  rates: 'Add or remove the rates one at a time',
};

export const INVOICE_CREATION_REFUSED =
  'Invoices are added by uploading their documents or by importing a CSV of bills, not created directly';

/** POST /invoices and POST /invoices/bulk: an invoice without its document, capture and validation is refused. */
const create = operation({}, async (): Promise<OpResult> => {
  throw readOnly(INVOICE_CREATION_REFUSED);
});

/**
 * PATCH /invoices/{id}: what a person may edit on an invoice (its account and values), re-validated as
 * the manual update is. A field with an action of its own is refused beside the field, naming the action.
 */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const invoice = await invoiceFor(ctx, ctx.params.id);
  refuseOtherFields(
    ctx.body,
    EDITABLE,
    ELSEWHERE,
    'Only the account and the values of an invoice can be changed here',
  );
  const { invoiceEditSchema } = await import('./invoice-inputs.ts');
  const edit = parseOrThrow(invoiceEditSchema, ctx.body);
  if (invoice.deleted === true) throw badRequest('Restore the invoice before changing it');
  if (invoice.completed === true) throw badRequest('A confirmed invoice cannot be changed');
  if (edit.accountId) {
    // Moving an invoice must not move it out of the caller's reach.
    const resource = findResource('invoices');
    const moved = { ...invoice, accountId: edit.accountId };
    if (resource && !(await mayAccessItem(resource, ctx.caller, moved, 'write'))) throw forbidden();
  }
  const updated = await editInvoice(ctx.caller.companyId, invoice, edit, ctx.caller.sub);
  await writeActivity(ctx.caller, { type: 'update', model: 'invoices', modelId: invoice._id });
  return { body: updated };
});

export const INVOICE_WRITE_OPERATIONS: Operations = {
  'invoices.create': create,
  'invoices.update': update,
};
