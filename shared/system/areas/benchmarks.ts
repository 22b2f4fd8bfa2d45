import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const BENCHMARKS_RESOURCE: ResourceDecl = {
  name: 'benchmarks',
  fn: 'insights',
  scope: 'global',
  read: PORTFOLIO_READERS,
  write: ADMIN_ONLY,
  indexes: ['kind'],
  searchFields: ['name'],
};

/** Benchmark sets. */
export const BENCHMARKS_AREA: AreaDecl = {
  name: 'benchmarks',
  resources: [BENCHMARKS_RESOURCE],
};
