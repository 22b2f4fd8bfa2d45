export { readableCaptureIds } from './capture-access.ts';
export type { StoredInvoice } from './invoice-repository.ts';
export { allInvoices, invoicesRef, queryIndexed } from './invoice-repository.ts';
