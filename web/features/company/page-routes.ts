// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { CompanyPageKey } from './pages.ts';

/** Which page serves each company route path. */
export const COMPANY_PAGE_OF: Readonly<Record<string, CompanyPageKey>> = {
  '/company/manage': 'company-manage',
  '/company/users': 'company-users',
  '/company/users/create': 'company-user-create',
  '/company/users/:userId/edit': 'company-user-edit',
  '/company/roles': 'company-roles',
  '/company/roles/create': 'company-role-create',
  '/company/roles/:roleId/edit': 'company-role-edit',
  '/company/permissions': 'company-permissions',
  '/company/permissions/create': 'company-permission-create',
  '/company/permissions/:permissionId/edit': 'company-permission-edit',
  '/company/log': 'company-log',
  '/companies/create': 'company-create',
};

/** A company route served by its page here; other routes pass through unchanged. */
export function withCompanyPage<R extends { path: string; page: string }>(route: R): R {
  const page = COMPANY_PAGE_OF[route.path];
  return page ? ({ ...route, page } as R) : route;
}
