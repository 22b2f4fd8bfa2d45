import { genericListQuery, genericSearchQuery, genericSubListQuery } from '../schemas/generic-queries.ts';
import type { AreaDecl } from './area.ts';
import type { HttpFunctionName } from './functions.ts';
import { findResource, RESOURCES, type ResourceDecl } from './resources.ts';
import type { AuthKind, HttpRoute, ItemCheck } from './routes.ts';

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
    {
      ...common,
      ...reads,
      method: 'GET',
      path: base,
      op: 'generic.list',
      permission: r.read,
      query: genericListQuery,
    },
    { ...common, method: 'POST', path: base, op: 'generic.create', permission: r.write },
    { ...common, method: 'POST', path: `${base}/bulk`, op: 'generic.bulk', permission: r.write },
    { ...common, ...reads, method: 'GET', path: `${base}/schema`, op: 'generic.schema', permission: r.read },
    {
      ...common,
      ...reads,
      method: 'GET',
      path: `${base}/search`,
      op: 'generic.search',
      permission: r.read,
      query: genericSearchQuery,
    },
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
        query: genericSubListQuery,
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

const routeKey = (r: HttpRoute) => `${r.method} ${r.path}`;

/**
 * The routes of the given areas, with the generic routes of the declared resources, for one function or
 * (without `fn`) for all. Specific routes come first so that, where a specific and a generic route share a
 * shape, the specific one is declared; the router still prefers literal segments over parameters. A
 * specific route with a generic route's method and path replaces it. A function passes the areas that
 * declare its routes and so carries no other area's routes; `HTTP_ROUTES` is the same over every area.
 */
export function assembleRoutes(areas: readonly AreaDecl[], fn?: HttpFunctionName): HttpRoute[] {
  const specific = areas.flatMap((a) => a.routes ?? []).filter((r) => !fn || r.fn === fn);
  const specificKeys = new Set(specific.map(routeKey));
  return [
    ...specific.map(withItemCheck),
    ...RESOURCES.filter((r) => !fn || r.fn === fn)
      .flatMap(genericRoutes)
      .filter((r) => !specificKeys.has(routeKey(r))),
  ];
}
