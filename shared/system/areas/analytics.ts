import type { AreaDecl } from '../area.ts';
import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

export const DASHBOARDS_RESOURCE: ResourceDecl = {
  name: 'dashboards',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  searchFields: ['name'],
};

export const WIDGETS_RESOURCE: ResourceDecl = {
  name: 'widgets',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  indexes: ['dashboardId'],
  searchFields: [],
};

// Machines (report rendering) read what a page shows.
const READS = { auth: ['user', 'machine'] } as const;
const insights = routesOf('insights');
// A site's and a portfolio's analytics are served with the sites and the portfolios, whose paths they share.
const assets = routesOf('assets');
const groups = routesOf('asset-groups');

/**
 * Insights (02 §7 Analytics): consumption, cost and emissions by period for the company, a portfolio or a
 * site, each caller counting only what they may read.
 */
const ANALYTICS_ROUTES: readonly HttpRoute[] = [
  insights('GET', '/analytics/v1/{id}', 'analytics.v1', PORTFOLIO_READERS, READS),
  insights('GET', '/analytics/v2/{id}', 'analytics.v2', PORTFOLIO_READERS, READS),
  assets('GET', '/assets/{id}/analytics', 'analytics.asset', PORTFOLIO_READERS, {
    ...READS,
    item: { type: 'assets', param: 'id', access: 'read' },
  }),
  groups('GET', '/asset-groups/{id}/analytics', 'analytics.assetGroup', PORTFOLIO_READERS, {
    ...READS,
    item: { type: 'assets', resource: 'asset-groups', param: 'id', access: 'read' },
  }),
  assets('GET', '/assets/{id}/group-analytics', 'analytics.assetGroups', PORTFOLIO_READERS, {
    ...READS,
    item: { type: 'assets', param: 'id', access: 'read' },
  }),
  groups('GET', '/asset-groups/{id}/account-types', 'analytics.assetGroupAccountTypes', PORTFOLIO_READERS, {
    ...READS,
    item: { type: 'assets', resource: 'asset-groups', param: 'id', access: 'read' },
  }),
];

/** Dashboards and their widgets, and the analytics behind them. */
export const ANALYTICS_AREA: AreaDecl = {
  name: 'analytics',
  resources: [DASHBOARDS_RESOURCE, WIDGETS_RESOURCE],
  routes: [...ANALYTICS_ROUTES],
};
