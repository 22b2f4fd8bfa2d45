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
export type {
  IntervalMonthFigures,
  InvoiceContribution,
  MeterMonth,
  MonthRestatement,
  Rollup,
  RollupDelta,
  SiteMonthDelta,
  StoredAccountMonth,
} from './consumption-repository.ts';
export {
  addManyToRollups,
  applyIntervalMonth,
  applyInvoiceContribution,
  deleteAccountMonths,
  deleteMeterMonths,
  getMeterMonths,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  moveSiteInPortfolio,
  putAccountMonths,
  putMeterMonths,
  rebuildPortfolioRollups,
  rebuildSiteYears,
  restateAccountMonth,
} from './consumption-repository.ts';
export type { SupplyPeriod } from './contract-store.ts';
export { regoBackedPeriods } from './contract-store.ts';
export type { RollupParts } from './rollup-parts.ts';
export type { SiteYearRollup } from './site-year-repository.ts';
export {
  fillWholeSiteYears,
  listWholeSiteYears,
  markSiteYearsBuilt,
  siteYearsState,
} from './site-year-repository.ts';
