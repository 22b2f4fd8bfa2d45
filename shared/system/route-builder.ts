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
