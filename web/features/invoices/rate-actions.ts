import type { useApi } from '../../lib/app-context.tsx';
import type { RateView } from './api.ts';
import type { RateBody } from './invoice-values.ts';
import { INVOICE_MESSAGES } from './messages.ts';
import type { useAction } from './use-action.ts';

/** Adding and deleting an invoice's charge lines, the same from the invoice page and the account's list. */
export function rateActions(
  invoiceId: string,
  api: ReturnType<typeof useApi>,
  run: ReturnType<typeof useAction>['run'],
  refresh: () => Promise<unknown>,
) {
  async function addRate(rate: RateBody) {
    const result = await run('rates', () => api.post(`/invoices/${invoiceId}/rates`, rate), {
      problem: INVOICE_MESSAGES.ratesProblem,
    });
    if (result.ok) await refresh();
    return result.ok;
  }
  async function deleteRate(rate: RateView) {
    if (!window.confirm(`Delete the rate ${rate.description}?`)) return;
    const result = await run('rates', () => api.del(`/invoices/${invoiceId}/rates/${rate._id}`), {
      problem: INVOICE_MESSAGES.ratesProblem,
    });
    if (result.ok) await refresh();
  }
  return { addRate, deleteRate };
}
