import type { PermissionName, RoutePermission } from '../../access/permission-names.ts';
import { USERS_LIST } from '../../access/permission-names.ts';
import { companiesPageQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import { COMPANY_AREA_RESOURCES } from '../resources/company.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

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
  resources: COMPANY_AREA_RESOURCES,
  routes: withQueries([...COMPANY_ROUTES], {
    'GET /companies/global': companiesPageQuery,
  }),
};
