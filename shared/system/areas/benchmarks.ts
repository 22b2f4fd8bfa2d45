import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const TARGETS_RESOURCE: ResourceDecl = {
  name: 'targets',
  fn: 'insights',
  scope: 'company',
  read: ADMIN_ONLY,
  write: ADMIN_ONLY,
  searchFields: ['name'],
};

export const BENCHMARKS_RESOURCE: ResourceDecl = {
  name: 'benchmarks',
  fn: 'insights',
  scope: 'global',
  read: PORTFOLIO_READERS,
  write: ADMIN_ONLY,
  indexes: ['kind'],
  searchFields: ['name'],
};

/** Targets and benchmark sets. */
export const BENCHMARKS_AREA: AreaDecl = {
  name: 'benchmarks',
  resources: [TARGETS_RESOURCE, BENCHMARKS_RESOURCE],
};
