import type * as z from 'zod';
import type { RoutePermission } from '../access/permission-names.ts';
import type { AuthKind } from '../access/route-rules.ts';
import { AREAS } from './areas.ts';
import type { HttpFunctionName } from './functions.ts';
import type { ItemType } from './resources.ts';
import { assembleRoutes } from './route-assembly.ts';

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
  /**
   * The schema of the query, which the operation serving the route declares too (see `withQueries`); a
   * route without one passes its query on as text (the generic list and search calls read filters by name).
   */
  query?: z.core.$ZodType;
}

/**
 * Every HTTP route of the API, over every area (`assembleRoutes` says how). Infra, the docs and the tests
 * read it; a function assembles only the routes of the areas that declare its own.
 */
export const HTTP_ROUTES: readonly HttpRoute[] = assembleRoutes(AREAS);

export { genericRoutes } from './route-assembly.ts';

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
