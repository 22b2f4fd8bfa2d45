import type { AuthKind } from '../../access/route-rules.ts';
import type { AreaDecl } from '../area.ts';
import { COMPANY_USERS, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

export const ASSET_GROUPS_RESOURCE: ResourceDecl = {
  name: 'asset-groups',
  fn: 'asset-groups',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: COMPANY_USERS,
  searchFields: ['name'],
  parent: { type: 'assets', field: 'assetIds' },
};

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
  resources: [ASSET_GROUPS_RESOURCE],
  routes: [...ASSET_GROUP_ROUTES],
};
