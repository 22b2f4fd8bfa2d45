import type { AreaDecl } from '../area.ts';
import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

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

/** Dashboards and their widgets. */
export const ANALYTICS_AREA: AreaDecl = {
  name: 'analytics',
  resources: [DASHBOARDS_RESOURCE, WIDGETS_RESOURCE],
};
