import type { AreaDecl } from '../area.ts';
import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const MESSAGES_RESOURCE: ResourceDecl = {
  name: 'messages',
  fn: 'util',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  indexes: ['assetId'],
  searchFields: ['subject'],
  subResources: ['replies'],
  parent: { type: 'assets', field: 'assetId' },
};

/** Discussions on sites. */
export const COLLABORATION_AREA: AreaDecl = {
  name: 'collaboration',
  resources: [MESSAGES_RESOURCE],
};
