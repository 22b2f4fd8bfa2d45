import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const DASHBOARDS_RESOURCE: ResourceDecl = {
  name: 'dashboards',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  // A dashboard is its member's home (GET /users/me/dashboard-data): no one else lists, reads or changes it.
  owner: 'createdBy',
  searchFields: ['name'],
};

export const WIDGETS_RESOURCE: ResourceDecl = {
  name: 'widgets',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  // A widget is on its member's own dashboard, and theirs as the dashboard is.
  owner: 'createdBy',
  indexes: ['dashboardId'],
  searchFields: [],
};

/** What the analytics area serves through the generic resource calls. */
export const ANALYTICS_AREA_RESOURCES: readonly ResourceDecl[] = [DASHBOARDS_RESOURCE, WIDGETS_RESOURCE];
