import type * as z from 'zod';
import type { HttpMethod } from './routes.ts';

/**
 * The schema of the query each route takes, by `METHOD /path` as the route declares them. The operation
 * serving the route declares the same schema and receives the values it parses; a route not listed here
 * passes its query on as text (the generic list and search calls read filters by field name).
 */
export const ROUTE_QUERIES: ReadonlyMap<string, z.ZodType> = new Map<`${HttpMethod} /${string}`, z.ZodType>(
  [],
);

/** The query schema a route declares, if any. */
export function routeQuerySchema(route: { method: HttpMethod; path: string }): z.ZodType | undefined {
  return ROUTE_QUERIES.get(`${route.method} ${route.path}`);
}
