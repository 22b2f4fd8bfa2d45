import type {
  confirmInvoice as ConfirmInvoice,
  withdrawInvoice as WithdrawInvoice,
} from './invoice-confirm.ts';

/*
 * Confirming or withdrawing a bill moves its meter's months and every roll-up above them, with the factor
 * table: far fewer calls do that than list, read or check bills, so that code loads on the first of them
 * rather than with every cold start of the functions serving bills.
 */
const confirmModule = () => import('./invoice-confirm.ts');

export const confirmInvoice = async (...args: Parameters<typeof ConfirmInvoice>) =>
  (await confirmModule()).confirmInvoice(...args);

export const withdrawInvoice = async (...args: Parameters<typeof WithdrawInvoice>) =>
  (await confirmModule()).withdrawInvoice(...args);
