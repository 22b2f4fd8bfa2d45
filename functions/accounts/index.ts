export { accountsResource, getAccount } from './account-links.ts';
export type { InvoiceContribution, Rollup } from './consumption-repository.ts';
export { applyInvoiceContribution, listAccountMonths, listAssetRollups } from './consumption-repository.ts';
export { contractsRef } from './contract-store.ts';
