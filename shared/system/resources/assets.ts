import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const ASSETS_RESOURCE: ResourceDecl = {
  name: 'assets',
  fn: 'assets',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  itemType: 'assets',
  indexes: ['entityId'],
  orderBy: 'siteName',
  searchFields: ['siteName', 'address.streetAddress', 'address.locality', 'address.postCode'],
  subResources: ['timeline-events', 'status-history', 'tenants'],
};

export const PROJECTS_RESOURCE: ResourceDecl = {
  name: 'projects',
  fn: 'assets',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  indexes: ['assetId'],
  searchFields: ['name'],
  subResources: ['tasks'],
  parent: { type: 'assets', field: 'assetId' },
};

/** What the assets area serves through the generic resource calls. */
export const ASSETS_AREA_RESOURCES: readonly ResourceDecl[] = [ASSETS_RESOURCE, PROJECTS_RESOURCE];
