import type { RoutePermission } from '../access/permission-names.ts';
import type { HttpFunctionName } from './functions.ts';
import { type ItemType, RESOURCES, type ResourceDecl } from './resources.ts';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Which credentials a route accepts: a user's bearer token always; kiosk and machine keys only where named. */
export type AuthKind = 'user' | 'kiosk' | 'machine';

export interface ItemCheck {
  type: ItemType;
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
  auth?: readonly AuthKind[];
}

const itemCheck = (r: ResourceDecl, access: 'read' | 'write', param = 'id'): ItemCheck | undefined =>
  r.itemType ? { type: r.itemType, param, access } : undefined;

/** The generic calls of 02 §7, for one resource. */
export function genericRoutes(r: ResourceDecl): HttpRoute[] {
  const base = `/${r.name}`;
  const common = { fn: r.fn, resource: r.name };
  const routes: HttpRoute[] = [
    { ...common, method: 'GET', path: base, op: 'generic.list', permission: r.read },
    { ...common, method: 'POST', path: base, op: 'generic.create', permission: r.write },
    { ...common, method: 'POST', path: `${base}/bulk`, op: 'generic.bulk', permission: r.write },
    { ...common, method: 'GET', path: `${base}/schema`, op: 'generic.schema', permission: r.read },
    { ...common, method: 'GET', path: `${base}/search`, op: 'generic.search', permission: r.read },
    {
      ...common,
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
  for (const sub of Object.keys(r.subResources ?? {})) {
    const subBase = `${base}/{id}/${sub}`;
    const s = { ...common, subResource: sub };
    routes.push(
      {
        ...s,
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
  { method: 'GET', path: '/users/me', fn: 'session', op: 'me', permission: '*' },
  { method: 'GET', path: '/users/me/company', fn: 'session', op: 'myCompany', permission: '*' },
  { method: 'GET', path: '/users/me/permissions', fn: 'session', op: 'myPermissions', permission: '*' },
  { method: 'GET', path: '/users/me/companies', fn: 'session', op: 'myCompanies', permission: '*' },
  { method: 'GET', path: '/users/me/notifications', fn: 'session', op: 'myNotifications', permission: '*' },
  {
    method: 'POST',
    path: '/users/me/seen-notification',
    fn: 'session',
    op: 'seenNotification',
    permission: '*',
  },
  { method: 'DELETE', path: '/sessions', fn: 'session', op: 'endSession', permission: '*' },
  { method: 'PUT', path: '/users/{userSub}/company-id', fn: 'session', op: 'switchCompany', permission: '*' },
];

/**
 * Every HTTP route of the API. Specific routes come first so that, where a specific and a generic route
 * share a shape, the specific one is declared; the router still prefers literal segments over parameters.
 */
export const HTTP_ROUTES: readonly HttpRoute[] = [...SESSION_ROUTES, ...RESOURCES.flatMap(genericRoutes)];

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
