import { ADMIN_ONLY, COMPANY_USER_ONLY } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const IMPORTS_RESOURCE: ResourceDecl = {
  name: 'imports',
  fn: 'automation',
  scope: 'company',
  read: COMPANY_USER_ONLY,
  write: COMPANY_USER_ONLY,
  indexes: ['type'],
  searchFields: [],
};

export const IMPORT_TEMPLATES_RESOURCE: ResourceDecl = {
  name: 'import-templates',
  fn: 'automation',
  scope: 'company',
  read: COMPANY_USER_ONLY,
  write: COMPANY_USER_ONLY,
  searchFields: ['name'],
};

export const LOGS_RESOURCE: ResourceDecl = {
  name: 'logs',
  fn: 'util',
  scope: 'company',
  read: ['company_admin', 'company_log'],
  write: ADMIN_ONLY,
  indexes: ['type', 'batchId'],
  searchFields: ['message'],
};

/** What the imports area serves through the generic resource calls. */
export const IMPORTS_AREA_RESOURCES: readonly ResourceDecl[] = [
  IMPORTS_RESOURCE,
  IMPORT_TEMPLATES_RESOURCE,
  LOGS_RESOURCE,
];
