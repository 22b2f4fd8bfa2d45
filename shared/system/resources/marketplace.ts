import { ADMIN_ONLY, COMPANY_USER_ONLY } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const MARKETPLACE_CARBON_RESOURCE: ResourceDecl = {
  name: 'marketplace/carbon',
  fn: 'collaboration',
  scope: 'global',
  read: COMPANY_USER_ONLY,
  write: ADMIN_ONLY,
  indexes: ['projectType'],
  searchFields: ['name'],
};

/** What the marketplace area serves through the generic resource calls. */
export const MARKETPLACE_AREA_RESOURCES: readonly ResourceDecl[] = [MARKETPLACE_CARBON_RESOURCE];
