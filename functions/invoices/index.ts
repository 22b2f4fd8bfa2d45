export { readableCaptureIds } from './capture-access.ts';
export type { StoredInvoice } from './invoice-repository.ts';
export { allInvoices } from './invoice-repository.ts';
