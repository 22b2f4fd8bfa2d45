import type { PermissionName, RoutePermission } from './permission-names.ts';

/** The key route permissions of 01 §6, as data. An empty list admits admins only. */
export const KEY_ROUTE_PERMISSIONS = {
  companyPages: ['company_admin'],
  companyUsersList: ['company_owner', 'company_user', 'company_user_full'],
  admin: [],
  suppliers: [],
  // 01 §6 lists targets as admin only; targets are now set by the people who run the portfolio, each on
  // the scopes they may read (write access to the scope to change one).
  targets: ['company_user', 'company_user_full', 'entity_user', 'asset_user', 'account_user'],
  imports: ['company_user'],
  marketplace: ['company_user'],
  entityImport: ['company_user'],
  connectors: ['company_admin'],
  automation: ['company_admin', 'view_integrations'],
  companyLog: ['company_admin', 'company_log'],
  invoiceUpload: ['company_admin', 'bill_validation'],
} as const satisfies Record<string, readonly PermissionName[]>;

export type KeyArea = keyof typeof KEY_ROUTE_PERMISSIONS;

/**
 * Which API calls belong to each area, as `METHOD /path` patterns: `*` as the method is any method, `*`
 * in a path any run of characters. Reference data an area edits may be read more widely (suppliers feed
 * every supplier picker), so such areas name their writing calls only.
 */
export const KEY_AREA_CALLS: Readonly<Record<KeyArea, readonly string[]>> = {
  companyPages: [
    'PATCH /companies/{id}',
    '* /companies/{id}/logo',
    'POST /companies/upload-logo',
    'POST /companies/{id}/users',
    'PATCH /companies/{id}/users/{userSub}',
    'DELETE /companies/{id}/users/{userSub}',
    '* /companies/{id}/users/{userSub}/welcome-email',
    'PATCH /companies/{id}/invoice-validation-rules',
    'POST /users',
    'PATCH /users/{id}',
    'DELETE /users/{id}',
    '* /roles*',
    '* /permissions*',
    '* /settings*',
    '* /machines*',
  ],
  companyUsersList: [
    'GET /companies/{id}/users',
    'GET /companies/{id}/users/{userSub}',
    'GET /companies/roles',
    'GET /users',
    'GET /users/{id}',
    'GET /users/search',
    'GET /users/schema',
  ],
  admin: [
    'GET /companies/global',
    'POST /companies',
    'GET /companies',
    'GET /companies/{id}',
    'PUT /companies/{id}',
    'DELETE /companies/{id}',
    '* /companies/bulk',
    'GET /companies/schema',
    'GET /companies/search',
  ],
  suppliers: [
    'POST /suppliers*',
    'PATCH /suppliers*',
    'PUT /suppliers*',
    'DELETE /suppliers*',
    '* /templates*',
  ],
  targets: ['* /targets*'],
  imports: ['* /imports*', '* /import-templates*'],
  marketplace: ['GET /marketplace*'],
  entityImport: ['POST /entities/import'],
  connectors: ['* /scraper-runs*', '* /companies/{id}/supplier-portals/*'],
  automation: ['* /automations*', '* /automation/*', '* /automation-runs*'],
  companyLog: ['GET /logs*'],
  invoiceUpload: ['POST /invoices/*upload*', 'POST /invoice-capture/upload'],
};

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

function patternMatches(pattern: string, method: string, path: string): boolean {
  const [m = '', p = ''] = pattern.split(' ');
  if (m !== '*' && m !== method) return false;
  const re = new RegExp(`^${p.split('*').map(escapeRegExp).join('.*')}$`);
  return re.test(path);
}

/** The key areas a declared call belongs to. */
export function keyAreasOf(route: { method: string; path: string }): KeyArea[] {
  return (Object.keys(KEY_AREA_CALLS) as KeyArea[]).filter((area) =>
    KEY_AREA_CALLS[area].some((pattern) => patternMatches(pattern, route.method, route.path)),
  );
}

/** Whether a route's permission is exactly its area's (same set of permission strings). */
export function samePermission(a: RoutePermission, b: RoutePermission): boolean {
  if (a === '*' || b === '*') return a === b;
  return a.length === b.length && a.every((p) => b.includes(p));
}
