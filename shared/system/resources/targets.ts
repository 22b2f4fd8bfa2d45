import { PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

/**
 * Reduction targets. Who reads or changes a target is decided by the scope it covers (the company, an
 * entity, a portfolio or a site), which no declared item check can name: the operations of
 * `functions/targets/` judge it, so every generic call of the resource is replaced by one of them.
 */
export const TARGETS_RESOURCE: ResourceDecl = {
  name: 'targets',
  fn: 'targets',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  searchFields: ['name'],
};

/** What the targets area serves through the generic resource calls. */
export const TARGETS_AREA_RESOURCES: readonly ResourceDecl[] = [TARGETS_RESOURCE];
