import type * as z from 'zod';
import { assetGroupPageQuery, assetGroupReportQuery, assetGroupSearchQuery } from '../schemas/queries.ts';
import type { HttpMethod } from './routes.ts';

/**
 * The schema of the query each route takes, by `METHOD /path` as the route declares them. The operation
 * serving the route declares the same schema and receives the values it parses; a route not listed here
 * passes its query on as text (the generic list and search calls read filters by field name).
 */
type RouteKey = `${HttpMethod} /${string}`;

export const ROUTE_QUERIES: ReadonlyMap<string, z.ZodType> = new Map<RouteKey, z.ZodType>([
  // Portfolios
  ['GET /asset-groups/{id}/assets', assetGroupPageQuery],
  ['GET /asset-groups/{id}/report-data', assetGroupReportQuery],
  ['GET /asset-groups/{id}/search-assets', assetGroupSearchQuery],
  ['GET /users/me/asset-groups', assetGroupPageQuery],
]);

/** The query schema a route declares, if any. */
export function routeQuerySchema(route: { method: HttpMethod; path: string }): z.ZodType | undefined {
  return ROUTE_QUERIES.get(`${route.method} ${route.path}`);
}
