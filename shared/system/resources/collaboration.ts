import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const MESSAGES_RESOURCE: ResourceDecl = {
  name: 'messages',
  fn: 'collaboration',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  indexes: ['assetId'],
  searchFields: ['subject'],
  subResources: ['replies'],
  parent: { type: 'assets', field: 'assetId' },
};

/** What the collaboration area serves through the generic resource calls. */
export const COLLABORATION_AREA_RESOURCES: readonly ResourceDecl[] = [MESSAGES_RESOURCE];
