import type { AreaDecl } from '../area.ts';
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

/** Recommendations on sites and for the company (their calls are served with the sites). */
export const RECOMMENDATIONS_AREA: AreaDecl = {
  name: 'recommendations',
  resources: [RECOMMENDATIONS_RESOURCE],
};
