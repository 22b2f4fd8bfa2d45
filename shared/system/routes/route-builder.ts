import type { HttpFunctionName } from '../functions.ts';
import { findResource, type ResourceDecl } from '../resources.ts';
import type { HttpMethod, HttpRoute } from '../routes.ts';

/** A call served by one function: its method, path, operation and permission, and any further rules. */
export type RouteOf = (
  method: HttpMethod,
  path: string,
  op: string,
  permission: HttpRoute['permission'],
  extra?: Partial<HttpRoute>,
) => HttpRoute;

/** Declares the calls one function serves, so no route of an area can name another area's function. */
export function routesOf(fn: HttpFunctionName): RouteOf {
  return (method, path, op, permission, extra = {}) => ({ method, path, fn, op, permission, ...extra });
}

/**
 * A resource the routes take their permissions from. A name that is not declared would leave a route
 * without a permission to check, so it stops the system declaration from loading at all.
 */
export function declaredResource(name: string): ResourceDecl {
  const resource = findResource(name);
  if (!resource) throw new Error(`The ${name} resource is not declared`);
  return resource;
}
