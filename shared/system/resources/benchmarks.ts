import { ADMIN_ONLY, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const BENCHMARKS_RESOURCE: ResourceDecl = {
  name: 'benchmarks',
  fn: 'targets',
  scope: 'global',
  read: PORTFOLIO_READERS,
  write: ADMIN_ONLY,
  indexes: ['kind'],
  searchFields: ['name'],
};

/** What the benchmarks area serves through the generic resource calls. */
export const BENCHMARKS_AREA_RESOURCES: readonly ResourceDecl[] = [BENCHMARKS_RESOURCE];
