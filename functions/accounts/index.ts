export { accountsResource, getAccount } from './account-links.ts';
export type { StoredAccount } from './account-repository.ts';
export {
  accountsWithMeterPoint,
  allAccounts,
  contractsRef,
  countAccountsOfAsset,
  findAccount,
  findStoredAccount,
} from './account-repository.ts';
export type { InvoiceContribution, Rollup } from './consumption-repository.ts';
export { applyInvoiceContribution, listAccountMonths, listAssetRollups } from './consumption-repository.ts';
