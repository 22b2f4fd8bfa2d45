export { accountsResource, getAccount } from './account-links.ts';
export { contractsRef } from './account-repository.ts';
export type { InvoiceContribution, Rollup } from './consumption-repository.ts';
export { applyInvoiceContribution, listAccountMonths, listAssetRollups } from './consumption-repository.ts';
