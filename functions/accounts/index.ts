export { accountsResource, getAccount, utilityOf } from './account-links.ts';
export type { StoredAccount } from './account-repository.ts';
export {
  accountsWithMeterPoint,
  allAccounts,
  contractsRef,
  countAccountsOfAsset,
  findAccount,
  findStoredAccount,
} from './account-repository.ts';
export type { InvoiceContribution, Rollup, StoredAccountMonth } from './consumption-repository.ts';
export {
  applyInvoiceContribution,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
} from './consumption-repository.ts';
