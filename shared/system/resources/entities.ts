import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const ENTITIES_RESOURCE: ResourceDecl = {
  name: 'entities',
  fn: 'entities',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  itemType: 'entities',
  indexes: ['parentEntityId'],
  searchFields: ['legalName', 'companyNumber'],
};

/** What the entities area serves through the generic resource calls. */
export const ENTITIES_AREA_RESOURCES: readonly ResourceDecl[] = [ENTITIES_RESOURCE];
