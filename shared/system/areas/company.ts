import type { PermissionName, RoutePermission } from '../../access/permission-names.ts';
import { USERS_LIST } from '../../access/permission-names.ts';
import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

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

// The key route permissions of 01 §6 that these calls need.
const COMPANY_ADMIN: readonly PermissionName[] = ['company_admin'];
const BILLING: readonly PermissionName[] = ['company_admin', 'bill_validation', 'bill_validation_v2'];
const STAFF: RoutePermission = [];
const CO = { companyParam: 'id' } as const;
const route = routesOf('companies');

/** Company administration (02 §7 Companies) and machine credentials. */
const COMPANY_ROUTES: readonly HttpRoute[] = [
  route('GET', '/companies/global', 'companies.global', STAFF),
  route('POST', '/companies', 'companies.create', STAFF),
  route('PATCH', '/companies/{id}', 'companies.update', COMPANY_ADMIN, CO),
  // Roles go through the same rule as a user's own permissions: nobody hands out more than they may.
  route('POST', '/roles', 'roles.create', COMPANY_ADMIN, { resource: 'roles' }),
  route('POST', '/roles/bulk', 'roles.bulk', COMPANY_ADMIN, { resource: 'roles' }),
  route('PATCH', '/roles/{id}', 'roles.update', COMPANY_ADMIN, { resource: 'roles' }),
  route('DELETE', '/roles/{id}', 'roles.delete', COMPANY_ADMIN, { resource: 'roles' }),
  route('GET', '/companies/roles', 'companies.roles', USERS_LIST),
  route('POST', '/companies/upload-logo', 'companies.uploadLogo', COMPANY_ADMIN),
  route('PUT', '/companies/{id}/logo', 'companies.confirmLogo', COMPANY_ADMIN, CO),
  route('GET', '/companies/{id}/users', 'companyUsers.list', USERS_LIST, CO),
  route('POST', '/companies/{id}/users', 'companyUsers.create', COMPANY_ADMIN, CO),
  route('GET', '/companies/{id}/users/{userSub}', 'companyUsers.get', USERS_LIST, CO),
  route('PATCH', '/companies/{id}/users/{userSub}', 'companyUsers.update', COMPANY_ADMIN, CO),
  route('DELETE', '/companies/{id}/users/{userSub}', 'companyUsers.delete', COMPANY_ADMIN, CO),
  // POST may reset the password; the GET of the specification's client welcomes without resetting it.
  route(
    'POST',
    '/companies/{id}/users/{userSub}/welcome-email',
    'companyUsers.welcomeEmail',
    COMPANY_ADMIN,
    CO,
  ),
  route(
    'GET',
    '/companies/{id}/users/{userSub}/welcome-email',
    'companyUsers.welcomeEmail',
    COMPANY_ADMIN,
    CO,
  ),
  route(
    'PATCH',
    '/companies/{id}/supplier-portals/{supplierId}',
    'companies.setSupplierPortal',
    COMPANY_ADMIN,
    CO,
  ),
  route(
    'DELETE',
    '/companies/{id}/supplier-portals/{supplierId}',
    'companies.removeSupplierPortal',
    COMPANY_ADMIN,
    CO,
  ),
  route('GET', '/companies/{id}/invoice-validation-rules', 'companies.validationRules', BILLING, CO),
  route(
    'PATCH',
    '/companies/{id}/invoice-validation-rules',
    'companies.updateValidationRules',
    COMPANY_ADMIN,
    CO,
  ),
  route('GET', '/machines', 'machines.list', COMPANY_ADMIN),
  route('POST', '/machines', 'machines.create', COMPANY_ADMIN),
  route('DELETE', '/machines/{id}', 'machines.revoke', COMPANY_ADMIN),
];

/** The company, its people, roles, settings and machine credentials. */
export const COMPANY_AREA: AreaDecl = {
  name: 'company',
  resources: [COMPANIES_RESOURCE, USERS_RESOURCE, ROLES_RESOURCE, PERMISSIONS_RESOURCE, SETTINGS_RESOURCE],
  routes: [...COMPANY_ROUTES],
};
