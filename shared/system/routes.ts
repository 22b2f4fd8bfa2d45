import { type PermissionName, type RoutePermission, USERS_LIST } from '../access/permission-names.ts';
import type { AuthKind } from '../access/route-rules.ts';
import type { HttpFunctionName } from './functions.ts';
import { findResource, type ItemType, RESOURCES, type ResourceDecl } from './resources.ts';
import { ACCOUNTS_AREA_ROUTES } from './routes/accounts.ts';
import { ASSET_GROUP_ROUTES } from './routes/asset-groups.ts';
import { ASSET_ROUTES } from './routes/assets.ts';
import { CLIENT_ROUTES } from './routes/client-errors.ts';
import { ENTITY_ROUTES } from './routes/entities.ts';
import { INVOICE_ROUTES } from './routes/invoices.ts';
import { SEARCH_ROUTES } from './routes/search.ts';
import { SUPPLIER_ROUTES } from './routes/suppliers.ts';
import { TEMPLATE_ROUTES } from './routes/templates.ts';
import { LOOKUP_ROUTES } from './routes/util.ts';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type { AuthKind } from '../access/route-rules.ts';

export interface ItemCheck {
  /** The entity, asset or account whose grants decide. */
  type: ItemType;
  /**
   * Set when the id names an item of another resource that hangs off one of `type` (a reading off its
   * account, an asset group off its assets): that item is read and its parent decides, as its operation does.
   */
  resource?: string;
  /** The path parameter holding the item id. */
  param: string;
  access: 'read' | 'write';
}

export interface HttpRoute {
  method: HttpMethod;
  /** Path below the API base, with `{name}` parameters, e.g. `/assets/{id}`. */
  path: string;
  fn: HttpFunctionName;
  /** The operation inside the function that serves the route. */
  op: string;
  permission: RoutePermission;
  item?: ItemCheck;
  /** Set on generic resource routes: which resource the generic operation serves. */
  resource?: string;
  subResource?: string;
  /** Which credentials the route accepts; by default a user's (token or API key). */
  auth?: readonly AuthKind[];
  /** The path parameter that names a company: only the caller's own (any for admins), else 404. */
  companyParam?: string;
  /** Only a signed-in user's own session: never an API key, kiosk or machine. */
  sessionOnly?: boolean;
  /** A call of the profile page or of signing in and out: all an API-only user's session may make. */
  profile?: boolean;
  /** A larger request body than the API's usual limit (a CSV file sent whole). */
  maxBodyBytes?: number;
}

const USER_OR_MACHINE: readonly AuthKind[] = ['user', 'machine'];

/** The check on an item of the resource: its own grants, or those of the asset or account it hangs off. */
function itemCheck(r: ResourceDecl, access: 'read' | 'write', param = 'id'): ItemCheck | undefined {
  if (r.itemType) return { type: r.itemType, param, access };
  if (r.parent) return { type: r.parent.type, resource: r.name, param, access };
  return undefined;
}

/**
 * A route under `/{resource}/{id}` of a resource narrowed per item checks that item unless it declares
 * its own check: GET reads it, every other method writes it. A route whose operation needs otherwise (a
 * GET that changes the item) says so in its declaration.
 */
function withItemCheck(route: HttpRoute): HttpRoute {
  if (route.item || !route.resource) return route;
  const r = findResource(route.resource);
  if (!r || !route.path.startsWith(`/${r.name}/{id}`)) return route;
  const item = itemCheck(r, route.method === 'GET' ? 'read' : 'write');
  return item ? { ...route, item } : route;
}

/** The generic calls of 02 §7, for one resource. */
export function genericRoutes(r: ResourceDecl): HttpRoute[] {
  const base = `/${r.name}`;
  const common = { fn: r.fn, resource: r.name };
  // Machines (report rendering) read what a page shows; they never write.
  const reads = { auth: USER_OR_MACHINE };
  const routes: HttpRoute[] = [
    { ...common, ...reads, method: 'GET', path: base, op: 'generic.list', permission: r.read },
    { ...common, method: 'POST', path: base, op: 'generic.create', permission: r.write },
    { ...common, method: 'POST', path: `${base}/bulk`, op: 'generic.bulk', permission: r.write },
    { ...common, ...reads, method: 'GET', path: `${base}/schema`, op: 'generic.schema', permission: r.read },
    { ...common, ...reads, method: 'GET', path: `${base}/search`, op: 'generic.search', permission: r.read },
    {
      ...common,
      ...reads,
      method: 'GET',
      path: `${base}/{id}`,
      op: 'generic.get',
      permission: r.read,
      item: itemCheck(r, 'read'),
    },
    {
      ...common,
      method: 'PATCH',
      path: `${base}/{id}`,
      op: 'generic.update',
      permission: r.write,
      item: itemCheck(r, 'write'),
    },
    {
      ...common,
      method: 'DELETE',
      path: `${base}/{id}`,
      op: 'generic.delete',
      permission: r.write,
      item: itemCheck(r, 'write'),
    },
    {
      ...common,
      method: 'PUT',
      path: `${base}/{id}`,
      op: 'generic.restore',
      permission: r.write,
      item: itemCheck(r, 'write'),
    },
  ];
  for (const sub of r.subResources ?? []) {
    const subBase = `${base}/{id}/${sub}`;
    const s = { ...common, subResource: sub };
    routes.push(
      {
        ...s,
        ...reads,
        method: 'GET',
        path: subBase,
        op: 'generic.sub.list',
        permission: r.read,
        item: itemCheck(r, 'read'),
      },
      {
        ...s,
        method: 'POST',
        path: subBase,
        op: 'generic.sub.create',
        permission: r.write,
        item: itemCheck(r, 'write'),
      },
      {
        ...s,
        ...reads,
        method: 'GET',
        path: `${subBase}/{subId}`,
        op: 'generic.sub.get',
        permission: r.read,
        item: itemCheck(r, 'read'),
      },
      {
        ...s,
        method: 'PATCH',
        path: `${subBase}/{subId}`,
        op: 'generic.sub.update',
        permission: r.write,
        item: itemCheck(r, 'write'),
      },
      {
        ...s,
        method: 'DELETE',
        path: `${subBase}/{subId}`,
        op: 'generic.sub.delete',
        permission: r.write,
        item: itemCheck(r, 'write'),
      },
    );
  }
  return routes;
}

/** Session calls of 01 §7 and 02 §7 (users). */
const SESSION_ROUTES: HttpRoute[] = [
  {
    method: 'GET',
    path: '/users/me',
    fn: 'session',
    op: 'me',
    permission: '*',
    auth: USER_OR_MACHINE,
    profile: true,
  },
  {
    method: 'GET',
    path: '/users/me/company',
    fn: 'session',
    op: 'myCompany',
    permission: '*',
    auth: USER_OR_MACHINE,
    profile: true,
  },
  {
    method: 'GET',
    path: '/users/me/permissions',
    fn: 'session',
    op: 'myPermissions',
    permission: '*',
    auth: USER_OR_MACHINE,
    profile: true,
  },
  { method: 'GET', path: '/users/me/companies', fn: 'session', op: 'myCompanies', permission: '*' },
  { method: 'GET', path: '/users/me/notifications', fn: 'session', op: 'myNotifications', permission: '*' },
  {
    method: 'POST',
    path: '/users/me/seen-notification',
    fn: 'session',
    op: 'seenNotification',
    permission: '*',
  },
  { method: 'DELETE', path: '/sessions', fn: 'session', op: 'endSession', permission: '*', profile: true },
  { method: 'PUT', path: '/users/{userSub}/company-id', fn: 'session', op: 'switchCompany', permission: '*' },
];

const route = (
  method: HttpMethod,
  path: string,
  fn: HttpFunctionName,
  op: string,
  permission: RoutePermission,
  extra: Partial<HttpRoute> = {},
): HttpRoute => ({ method, path, fn, op, permission, ...extra });

// The key route permissions of 01 §6 that these calls need.
const COMPANY_ADMIN: readonly PermissionName[] = ['company_admin'];
const BILLING: readonly PermissionName[] = ['company_admin', 'bill_validation', 'bill_validation_v2'];
const STAFF: RoutePermission = [];
const OWN = { sessionOnly: true, profile: true } as const;
const PROFILE = { profile: true } as const;
const CO = { companyParam: 'id' } as const;

/** The signed-in user's own API access and second factor (02 §7 users; the profile page). */
const ACCOUNT_ROUTES: HttpRoute[] = [
  route('POST', '/users/me/api-setup', 'session', 'apiSetup', '*', OWN),
  route('POST', '/users/me/api-key', 'session', 'apiKey', '*', OWN),
  route('GET', '/users/me/api-usage', 'session', 'apiUsage', '*', PROFILE),
  route('GET', '/users/me/mfa', 'session', 'mfaStatus', '*', OWN),
  route('POST', '/users/me/mfa/totp', 'session', 'totpStart', '*', OWN),
  route('POST', '/users/me/mfa/totp/verify', 'session', 'totpVerify', '*', OWN),
  route('DELETE', '/users/me/mfa/totp', 'session', 'totpDisable', '*', OWN),
  // A company's members are changed only through the user administration, which also keeps identities.
  route('POST', '/users', 'session', 'companyUsers.create', COMPANY_ADMIN),
  route('PATCH', '/users/{id}', 'session', 'companyUsers.update', COMPANY_ADMIN),
  route('DELETE', '/users/{id}', 'session', 'companyUsers.delete', COMPANY_ADMIN),
];

/** Company administration (02 §7 Companies) and machine credentials. */
const COMPANY_ROUTES: HttpRoute[] = [
  route('GET', '/companies/global', 'companies', 'companies.global', STAFF),
  route('POST', '/companies', 'companies', 'companies.create', STAFF),
  route('PATCH', '/companies/{id}', 'companies', 'companies.update', COMPANY_ADMIN, CO),
  // Roles go through the same rule as a user's own permissions: nobody hands out more than they may.
  route('POST', '/roles', 'companies', 'roles.create', COMPANY_ADMIN, { resource: 'roles' }),
  route('POST', '/roles/bulk', 'companies', 'roles.bulk', COMPANY_ADMIN, { resource: 'roles' }),
  route('PATCH', '/roles/{id}', 'companies', 'roles.update', COMPANY_ADMIN, { resource: 'roles' }),
  route('DELETE', '/roles/{id}', 'companies', 'roles.delete', COMPANY_ADMIN, { resource: 'roles' }),
  route('GET', '/companies/roles', 'companies', 'companies.roles', USERS_LIST),
  route('POST', '/companies/upload-logo', 'companies', 'companies.uploadLogo', COMPANY_ADMIN),
  route('PUT', '/companies/{id}/logo', 'companies', 'companies.confirmLogo', COMPANY_ADMIN, CO),
  route('GET', '/companies/{id}/users', 'companies', 'companyUsers.list', USERS_LIST, CO),
  route('POST', '/companies/{id}/users', 'companies', 'companyUsers.create', COMPANY_ADMIN, CO),
  route('GET', '/companies/{id}/users/{userSub}', 'companies', 'companyUsers.get', USERS_LIST, CO),
  route('PATCH', '/companies/{id}/users/{userSub}', 'companies', 'companyUsers.update', COMPANY_ADMIN, CO),
  route('DELETE', '/companies/{id}/users/{userSub}', 'companies', 'companyUsers.delete', COMPANY_ADMIN, CO),
  route(
    'GET',
    '/companies/{id}/users/{userSub}/welcome-email',
    'companies',
    'companyUsers.welcomeEmail',
    COMPANY_ADMIN,
    CO,
  ),
  route(
    'PATCH',
    '/companies/{id}/supplier-portals/{supplierId}',
    'companies',
    'companies.setSupplierPortal',
    COMPANY_ADMIN,
    CO,
  ),
  route(
    'DELETE',
    '/companies/{id}/supplier-portals/{supplierId}',
    'companies',
    'companies.removeSupplierPortal',
    COMPANY_ADMIN,
    CO,
  ),
  route(
    'GET',
    '/companies/{id}/invoice-validation-rules',
    'companies',
    'companies.validationRules',
    BILLING,
    CO,
  ),
  route(
    'PATCH',
    '/companies/{id}/invoice-validation-rules',
    'companies',
    'companies.updateValidationRules',
    COMPANY_ADMIN,
    CO,
  ),
  route('GET', '/machines', 'companies', 'machines.list', COMPANY_ADMIN),
  route('POST', '/machines', 'companies', 'machines.create', COMPANY_ADMIN),
  route('DELETE', '/machines/{id}', 'companies', 'machines.revoke', COMPANY_ADMIN),
];

/** Kiosks (02 §7): made and re-keyed by company admins; their screens call with the kiosk's own key. */
const KIOSK_ROUTES: HttpRoute[] = [
  route('POST', '/kiosks', 'util', 'kiosks.create', COMPANY_ADMIN),
  route('POST', '/kiosks/{id}/rotate-secret', 'util', 'kiosks.rotate', COMPANY_ADMIN),
  route('GET', '/kiosks/{id}/preview', 'util', 'kiosks.preview', COMPANY_ADMIN, { auth: ['user', 'kiosk'] }),
  route('GET', '/kiosks/live', 'util', 'kiosks.live', STAFF, { auth: ['kiosk'] }),
  route('GET', '/kiosks/live/consumption', 'util', 'kiosks.liveConsumption', STAFF, { auth: ['kiosk'] }),
];

const SPECIFIC_ROUTES: HttpRoute[] = [
  ...SESSION_ROUTES,
  ...ACCOUNT_ROUTES,
  ...COMPANY_ROUTES,
  ...KIOSK_ROUTES,
  ...ASSET_ROUTES,
  ...ACCOUNTS_AREA_ROUTES,
  ...ENTITY_ROUTES,
  ...ASSET_GROUP_ROUTES,
  ...LOOKUP_ROUTES,
  ...SEARCH_ROUTES,
  ...SUPPLIER_ROUTES,
  ...TEMPLATE_ROUTES,
  ...INVOICE_ROUTES,
];
const routeKey = (r: HttpRoute) => `${r.method} ${r.path}`;
const specificKeys = new Set(SPECIFIC_ROUTES.map(routeKey));

/**
 * Every HTTP route of the API. Specific routes come first so that, where a specific and a generic route
 * share a shape, the specific one is declared; the router still prefers literal segments over parameters.
 * A specific route with a generic route's method and path replaces it.
 */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  ...SPECIFIC_ROUTES.map(withItemCheck),
  ...CLIENT_ROUTES,
  ...RESOURCES.flatMap(genericRoutes).filter((r) => !specificKeys.has(routeKey(r))),
];

/** The first path segment(s) each function serves: the API gateway sends `/{prefix}` and below to it. */
export function routePrefixes(routes: readonly HttpRoute[] = HTTP_ROUTES): Map<string, HttpFunctionName> {
  const prefixes = new Map<string, HttpFunctionName>();
  for (const route of routes) {
    const first = route.path.split('/')[1] ?? '';
    const existing = prefixes.get(first);
    if (existing && existing !== route.fn) {
      throw new Error(`Path prefix /${first} is served by both ${existing} and ${route.fn}`);
    }
    prefixes.set(first, route.fn);
  }
  return prefixes;
}
