import { ADMIN_ONLY, COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const COMPANIES_RESOURCE: ResourceDecl = {
  name: 'companies',
  fn: 'companies',
  scope: 'global',
  read: ADMIN_ONLY,
  write: ADMIN_ONLY,
  searchFields: ['name'],
};

export const USERS_RESOURCE: ResourceDecl = {
  name: 'users',
  fn: 'session',
  scope: 'company',
  read: ['company_owner', 'company_user', 'company_user_full'],
  // Company admins change members through the user administration routes, which keep identities.
  write: ADMIN_ONLY,
  searchFields: ['name', 'email'],
};

export const ROLES_RESOURCE: ResourceDecl = {
  name: 'roles',
  fn: 'companies',
  scope: 'company',
  read: COMPANY_ADMINS,
  write: COMPANY_ADMINS,
  searchFields: ['name'],
};

export const PERMISSIONS_RESOURCE: ResourceDecl = {
  name: 'permissions',
  fn: 'companies',
  scope: 'company',
  read: COMPANY_ADMINS,
  write: COMPANY_ADMINS,
  searchFields: ['name'],
};

export const SETTINGS_RESOURCE: ResourceDecl = {
  name: 'settings',
  fn: 'companies',
  scope: 'company',
  read: COMPANY_ADMINS,
  write: COMPANY_ADMINS,
  searchFields: ['key'],
};

/** What the company area serves through the generic resource calls. */
export const COMPANY_AREA_RESOURCES: readonly ResourceDecl[] = [
  COMPANIES_RESOURCE,
  USERS_RESOURCE,
  ROLES_RESOURCE,
  PERMISSIONS_RESOURCE,
  SETTINGS_RESOURCE,
];
