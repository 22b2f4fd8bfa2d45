import type * as z from 'zod';
import type { HttpFunctionName } from './functions.ts';
import type { HttpMethod, HttpRoute } from './routes.ts';

/** A call served by one function: its method, path, operation and permission, and any further rules. */
export type RouteOf = (
  method: HttpMethod,
  path: string,
  op: string,
  permission: HttpRoute['permission'],
  extra?: Partial<HttpRoute>,
) => HttpRoute;

/**
 * Declares the calls one function serves, so no route of an area can name another area's function.
 * It imports nothing at run time: the area declarations use it while the assembly that imports them is
 * still loading.
 */
export function routesOf(fn: HttpFunctionName): RouteOf {
  return (method, path, op, permission, extra = {}) => ({ method, path, fn, op, permission, ...extra });
}

/** A route as `METHOD /path`, the way the query schemas of an area name their routes. */
export type RouteKey = `${HttpMethod} /${string}`;

/**
 * Gives routes the schemas of their queries, named by `METHOD /path`. The operation serving each route
 * declares the same schema, which the function checks when it loads; a key that names none of the routes
 * stops the declaration from loading, so a schema cannot be left behind by a route that moved.
 */
export function withQueries(
  routes: readonly HttpRoute[],
  queries: Readonly<Partial<Record<RouteKey, z.core.$ZodType>>>,
): HttpRoute[] {
  const keyOf = (r: HttpRoute) => `${r.method} ${r.path}`;
  const keys = new Set(routes.map(keyOf));
  const stray = Object.keys(queries).filter((k) => !keys.has(k));
  if (stray.length > 0) throw new Error(`Query schemas for undeclared routes: ${stray.join(', ')}`);
  return routes.map((r) => {
    const query = queries[keyOf(r) as RouteKey];
    return query ? { ...r, query } : r;
  });
}
