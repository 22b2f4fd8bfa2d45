export { accountsResource, getAccount, utilityOf } from './account-links.ts';
export type { StoredAccount } from './account-repository.ts';
export {
  accountsWithMeterPoint,
  allAccounts,
  contractsRef,
  countAccountsOfAsset,
  findAccount,
  findStoredAccount,
  metersNamingTenant,
  tenantMetersOfSite,
  tenantNamesOfSite,
} from './account-repository.ts';
export { finishMeterUserMoves, rebuildSitesOfMeters } from './account-rollups.ts';
export type {
  GoneMonth,
  IntervalMonthFigures,
  InvoiceContribution,
  MeterMonth,
  MonthReplacement,
  MonthRestated,
  MonthRestatement,
  RestatedSiteMonth,
  Rollup,
  RollupDelta,
  SiteMonthDelta,
  StoredAccountMonth,
} from './consumption-repository.ts';
export {
  addManyToRollups,
  applyIntervalMonth,
  applyIntervalMonths,
  applyInvoiceContribution,
  applyRestatementToGroups,
  applyRestatementToSite,
  deleteAccountMonths,
  dropRollupMarks,
  forgetGoneMonths,
  getMeterMonths,
  hasRollupMarks,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listGoneMonths,
  listPortfolioRollups,
  moveSiteInPortfolio,
  putAccountMonths,
  putMeterMonths,
  rebuildPortfolioRollups,
  rebuildSiteYears,
  replaceMeterMonths,
  restateAccountMonth,
  restatementsOf,
  storedContributions,
  sumRestatedMonths,
} from './consumption-repository.ts';
export type { StoredContract, SupplyPeriod } from './contract-store.ts';
export { contractsOf, regoBackedPeriods } from './contract-store.ts';
export { deadMeterUserMoves } from './meter-user-move-repository.ts';
export type { RollupParts, RollupSource } from './rollup-parts.ts';
export {
  meterUserOf,
  ROLLUP_SOURCES,
  ROLLUP_USERS,
  rollupSourceOf,
  SPLIT_PARTS,
  splitOf,
  sumParts,
} from './rollup-parts.ts';
export type { SiteYearMonths, SiteYearRollup } from './site-year-repository.ts';
export {
  fillWholeSiteYears,
  getWholeSiteYears,
  listSiteYears,
  listWholeSiteYears,
  markSiteYearsBuilt,
  siteYearsState,
} from './site-year-repository.ts';
