import {
  analyticsQuerySchema,
  groupAnalyticsQuerySchema,
  itemAnalyticsQuerySchema,
} from '../../schemas/analytics-query.ts';
import { provenanceQuery } from '../../schemas/provenance.ts';
import type { AreaDecl } from '../area.ts';
import type { QueueDecl } from '../functions.ts';
import { COMPANY_ADMINS, PORTFOLIO_READERS } from '../permission-sets.ts';
import { ANALYTICS_AREA_RESOURCES } from '../resources/analytics.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

// Machines (report rendering) read what a page shows.
const READS = { auth: ['user', 'machine'] } as const;
const insights = routesOf('insights');
// A site's and a portfolio's analytics are served with the sites and the portfolios, whose paths they share.
const assets = routesOf('assets');
const groups = routesOf('asset-groups');
// The session function serves every /users/me call.
const session = routesOf('session');

/**
 * Insights (02 §7 Analytics): consumption, cost and emissions by period for the company, a portfolio or a
 * site, each caller counting only what they may read.
 */
const ANALYTICS_ROUTES: readonly HttpRoute[] = [
  insights('GET', '/analytics/v1/{id}', 'analytics.v1', PORTFOLIO_READERS, READS),
  insights('GET', '/analytics/v2/{id}', 'analytics.v2', PORTFOLIO_READERS, READS),
  // Where a figure comes from: its sites, meters and bills, down to the place on the bill it was read.
  insights('GET', '/analytics/provenance', 'analytics.provenance', PORTFOLIO_READERS, READS),
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
  // The factor set edition the figures are in; moving to another recomputes them all: admins only.
  insights('GET', '/analytics/factor-sets', 'analytics.factorSets', PORTFOLIO_READERS),
  insights('POST', '/analytics/factor-sets/restate', 'analytics.restate', COMPANY_ADMINS),
  insights('GET', '/analytics/factor-sets/restatements/{jobId}', 'analytics.restatementJob', COMPANY_ADMINS),
];

/**
 * Restatements of a company's emissions in another factor set edition, run by their worker, which also
 * makes a company's kept copy of site years afresh when a table finds it older than an hour.
 */
export const RESTATEMENTS_QUEUE: QueueDecl = {
  name: 'restatements',
  consumer: 'restatements',
  batchSize: 1,
  // At least the worker's own timeout, so a long run is never handed to a second worker meanwhile.
  visibilityTimeoutSeconds: 900,
  maxReceiveCount: 3,
};

/**
 * The home dashboard (02 §7 Dashboards): the caller's dashboard and widgets in one call, made on first use,
 * and each widget's figures; the path parameters are checked by `widgetDataParamsSchema` and
 * `meterDataQualityParamsSchema` (shared/schemas/dashboard-widget-fields.ts). The meter's data-quality page reads
 * the same bills as the data-quality widget.
 */
const DASHBOARD_ROUTES: readonly HttpRoute[] = [
  session('GET', '/users/me/dashboard-data', 'dashboards.home', PORTFOLIO_READERS),
  insights(
    'GET',
    '/dashboards/{dashboardId}/widgets/{widgetId}/data',
    'dashboards.widgetData',
    PORTFOLIO_READERS,
  ),
  insights(
    'GET',
    '/analytics/meters/{accountId}/data-quality',
    'analytics.meterDataQuality',
    PORTFOLIO_READERS,
    {
      ...READS,
      item: { type: 'accounts', param: 'accountId', access: 'read' },
    },
  ),
];

/** Dashboards and their widgets, and the analytics behind them. */
export const ANALYTICS_AREA: AreaDecl = {
  name: 'analytics',
  resources: ANALYTICS_AREA_RESOURCES,
  routes: withQueries([...ANALYTICS_ROUTES, ...DASHBOARD_ROUTES], {
    'GET /analytics/provenance': provenanceQuery,
    'GET /analytics/v1/{id}': analyticsQuerySchema,
    'GET /analytics/v2/{id}': analyticsQuerySchema,
    'GET /assets/{id}/analytics': itemAnalyticsQuerySchema,
    'GET /asset-groups/{id}/analytics': itemAnalyticsQuerySchema,
    'GET /assets/{id}/group-analytics': groupAnalyticsQuerySchema,
  }),
  queues: [RESTATEMENTS_QUEUE],
};
