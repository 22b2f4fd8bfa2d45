import { COMPANY_USERS, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const RECOMMENDATIONS_RESOURCE: ResourceDecl = {
  name: 'recommendations',
  fn: 'assets',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: COMPANY_USERS,
  indexes: ['assetId'],
  searchFields: ['title'],
  parent: { type: 'assets', field: 'assetId' },
};

/** What the recommendations area serves through the generic resource calls. */
export const RECOMMENDATIONS_AREA_RESOURCES: readonly ResourceDecl[] = [RECOMMENDATIONS_RESOURCE];
