import type { RateView } from './api.ts';
import { useAddInvoiceRate, useDeleteInvoiceRate } from './api.ts';
import type { RateBody } from './invoice-values.ts';
import { INVOICE_MESSAGES } from './messages.ts';
import type { useAction } from './use-action.ts';

/** Adding and deleting an invoice's charge lines, the same from the invoice page and the account's list. */
export function useRateActions(invoiceId: string, run: ReturnType<typeof useAction>['run']) {
  const addInvoiceRate = useAddInvoiceRate();
  const deleteInvoiceRate = useDeleteInvoiceRate();
  async function addRate(rate: RateBody) {
    const result = await run('rates', () => addInvoiceRate(invoiceId, rate), {
      problem: INVOICE_MESSAGES.ratesProblem,
    });
    return result.ok;
  }
  async function deleteRate(rate: RateView) {
    if (!window.confirm(`Delete the rate ${rate.description}?`)) return;
    const _result = await run('rates', () => deleteInvoiceRate(invoiceId, rate._id), {
      problem: INVOICE_MESSAGES.ratesProblem,
    });
  }
  return { addRate, deleteRate };
}
