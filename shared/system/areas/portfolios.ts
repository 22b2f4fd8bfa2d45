import type { AuthKind } from '../../access/route-rules.ts';
import { assetGroupPageQuery, assetGroupReportQuery, assetGroupSearchQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import { ASSET_GROUPS_RESOURCE, PORTFOLIOS_AREA_RESOURCES } from '../resources/portfolios.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const groups = ASSET_GROUPS_RESOURCE;
const READ = groups.read;
const WRITE = groups.write;

// Machines (report rendering) read what a page shows; they never write.
const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const GENERIC = { resource: 'asset-groups' } as const;

const route = routesOf('asset-groups');
const session = routesOf('session');

/**
 * Portfolios (02 §7 Asset groups): their assets, adding and taking out assets, report data and floor
 * area. Create and update replace the generic calls so that every asset named must exist. The signed-in
 * user's own list (GET /users/me/asset-groups) is a session call.
 */
const ASSET_GROUP_ROUTES: readonly HttpRoute[] = [
  route('POST', '/asset-groups', 'assetGroups.create', WRITE, GENERIC),
  route('PATCH', '/asset-groups/{id}', 'assetGroups.update', WRITE, GENERIC),
  route('GET', '/asset-groups/{id}/assets', 'assetGroups.assets', READ, { ...READS, ...GENERIC }),
  route('PUT', '/asset-groups/{id}/asset/{assetId}', 'assetGroups.addAsset', WRITE, GENERIC),
  route('PUT', '/asset-groups/{id}/assets/{assetIds}', 'assetGroups.addAssets', WRITE, GENERIC),
  route('DELETE', '/asset-groups/{id}/asset/{assetId}', 'assetGroups.removeAsset', WRITE, GENERIC),
  route('GET', '/asset-groups/{id}/report-data', 'assetGroups.reportData', READ, { ...READS, ...GENERIC }),
  route('GET', '/asset-groups/{id}/search-assets', 'assetGroups.searchAssets', READ, GENERIC),
  route('GET', '/asset-groups/{id}/floor-area', 'assetGroups.floorArea', READ, { ...READS, ...GENERIC }),
  session('GET', '/users/me/asset-groups', 'assetGroups.mine', '*'),
];

/** Portfolios (asset groups), their reports and the session's portfolio. */
export const PORTFOLIOS_AREA: AreaDecl = {
  name: 'portfolios',
  resources: PORTFOLIOS_AREA_RESOURCES,
  routes: withQueries([...ASSET_GROUP_ROUTES], {
    'GET /asset-groups/{id}/assets': assetGroupPageQuery,
    'GET /asset-groups/{id}/report-data': assetGroupReportQuery,
    'GET /asset-groups/{id}/search-assets': assetGroupSearchQuery,
    'GET /users/me/asset-groups': assetGroupPageQuery,
  }),
};
