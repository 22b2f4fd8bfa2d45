import type {
  restoreInvoice as RestoreInvoice,
  softDeleteInvoice as SoftDeleteInvoice,
} from './invoice-deletion.ts';

/*
 * Deleting or restoring a bill withdraws it from (or puts it back into) its meter's months and every roll-up
 * above them, through the analytics area and its factor tables: few calls do that, so that code loads on
 * the first of them rather than with every cold start of the functions serving bills and the queue.
 */
const deletionModule = () => import('./invoice-deletion.ts');

export const softDeleteInvoice = async (...args: Parameters<typeof SoftDeleteInvoice>) =>
  (await deletionModule()).softDeleteInvoice(...args);

export const restoreInvoice = async (...args: Parameters<typeof RestoreInvoice>) =>
  (await deletionModule()).restoreInvoice(...args);
