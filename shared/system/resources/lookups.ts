import { ADMIN_ONLY } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const COUNTRIES_RESOURCE: ResourceDecl = {
  name: 'countries',
  fn: 'util',
  scope: 'global',
  read: '*',
  write: ADMIN_ONLY,
  searchFields: ['name', 'fullName'],
};

/** What the lookups area serves through the generic resource calls. */
export const LOOKUPS_AREA_RESOURCES: readonly ResourceDecl[] = [COUNTRIES_RESOURCE];
