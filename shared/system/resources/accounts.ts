import { accountFieldErrors } from '../../schemas/account-rules.ts';
import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const ACCOUNTS_RESOURCE: ResourceDecl = {
  name: 'accounts',
  fn: 'accounts',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  itemType: 'accounts',
  indexes: ['assetId', 'supplierId'],
  searchFields: ['name', 'meterPointNumber'],
  subResources: ['status-history'],
  refine: accountFieldErrors,
};

export const READINGS_RESOURCE: ResourceDecl = {
  name: 'readings',
  fn: 'accounts',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  indexes: ['accountId'],
  searchFields: [],
  parent: { type: 'accounts', field: 'accountId' },
};

/** What the accounts area serves through the generic resource calls. */
export const ACCOUNTS_AREA_RESOURCES: readonly ResourceDecl[] = [ACCOUNTS_RESOURCE, READINGS_RESOURCE];
