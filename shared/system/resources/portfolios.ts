import { COMPANY_USERS, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const ASSET_GROUPS_RESOURCE: ResourceDecl = {
  name: 'asset-groups',
  fn: 'asset-groups',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: COMPANY_USERS,
  searchFields: ['name'],
  parent: { type: 'assets', field: 'assetIds' },
};

/** What the portfolios area serves through the generic resource calls. */
export const PORTFOLIOS_AREA_RESOURCES: readonly ResourceDecl[] = [ASSET_GROUPS_RESOURCE];
