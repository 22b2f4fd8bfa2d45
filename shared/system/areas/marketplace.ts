import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, COMPANY_USER_ONLY } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const MARKETPLACE_CARBON_RESOURCE: ResourceDecl = {
  name: 'marketplace/carbon',
  fn: 'util',
  scope: 'global',
  read: COMPANY_USER_ONLY,
  write: ADMIN_ONLY,
  indexes: ['projectType'],
  searchFields: ['name'],
};

/** The carbon marketplace. */
export const MARKETPLACE_AREA: AreaDecl = {
  name: 'marketplace',
  resources: [MARKETPLACE_CARBON_RESOURCE],
};
