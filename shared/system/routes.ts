import type { RoutePermission } from '../access/permission-names.ts';
import type { AuthKind } from '../access/route-rules.ts';
import { AREAS } from './areas.ts';
import type { HttpFunctionName } from './functions.ts';
import { findResource, type ItemType, RESOURCES, type ResourceDecl } from './resources.ts';

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

/** The areas' own routes. */
const SPECIFIC_ROUTES: readonly HttpRoute[] = AREAS.flatMap((a) => a.routes ?? []);
const routeKey = (r: HttpRoute) => `${r.method} ${r.path}`;
const specificKeys = new Set(SPECIFIC_ROUTES.map(routeKey));

/**
 * Every HTTP route of the API. Specific routes come first so that, where a specific and a generic route
 * share a shape, the specific one is declared; the router still prefers literal segments over parameters.
 * A specific route with a generic route's method and path replaces it.
 */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  ...SPECIFIC_ROUTES.map(withItemCheck),
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
