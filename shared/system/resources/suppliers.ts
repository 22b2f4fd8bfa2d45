import { ADMIN_ONLY } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const SUPPLIERS_RESOURCE: ResourceDecl = {
  name: 'suppliers',
  fn: 'templates',
  scope: 'global',
  read: '*',
  write: ADMIN_ONLY,
  indexes: ['type'],
  searchFields: ['name'],
};

export const TEMPLATES_RESOURCE: ResourceDecl = {
  name: 'templates',
  fn: 'templates',
  scope: 'global',
  read: ADMIN_ONLY,
  write: ADMIN_ONLY,
  indexes: ['supplierId'],
  searchFields: [],
};

/** What the suppliers area serves through the generic resource calls. */
export const SUPPLIERS_AREA_RESOURCES: readonly ResourceDecl[] = [SUPPLIERS_RESOURCE, TEMPLATES_RESOURCE];
