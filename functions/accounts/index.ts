export { accountsResource, getAccount, utilityOf } from './account-links.ts';
export type { InvoiceContribution, Rollup, StoredAccountMonth } from './consumption-repository.ts';
export {
  applyInvoiceContribution,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
} from './consumption-repository.ts';
export { contractsRef } from './contract-store.ts';
