import { crremSiteQuery, crremSitesQuery, energySitesQuery } from '../../schemas/benchmarks.ts';
import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, PORTFOLIO_READERS } from '../permission-sets.ts';
import { BENCHMARKS_AREA_RESOURCES } from '../resources/benchmarks.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const insights = routesOf('targets');
// Machines (report rendering) read what a page shows.
const READS = { auth: ['user', 'machine'] } as const;

/**
 * Sites against benchmarks: CRREM pathways (a set loaded by staff from the licensed workbook), and the
 * LETI, REEB and ETN energy figures of the `benchmarks` resource; each caller sees only the sites they may
 * read. Queries: shared/schemas/benchmarks.ts.
 */
const BENCHMARK_ROUTES: readonly HttpRoute[] = [
  insights('GET', '/benchmarks/crrem/sites', 'benchmarks.crremSites', PORTFOLIO_READERS, READS),
  insights('GET', '/benchmarks/crrem/sites/{id}', 'benchmarks.crremSite', PORTFOLIO_READERS, {
    ...READS,
    item: { type: 'assets', param: 'id', access: 'read' },
  }),
  insights('GET', '/benchmarks/crrem/pathway-sets', 'benchmarks.pathwaySets', PORTFOLIO_READERS, READS),
  insights('POST', '/benchmarks/crrem/pathway-sets', 'benchmarks.uploadPathways', ADMIN_ONLY, {
    maxBodyBytes: 4_500_000,
  }),
  insights('GET', '/benchmarks/{kind}/sites', 'benchmarks.energySites', PORTFOLIO_READERS, READS),
];

/** Benchmark sets. */
export const BENCHMARKS_AREA: AreaDecl = {
  name: 'benchmarks',
  resources: BENCHMARKS_AREA_RESOURCES,
  routes: withQueries([...BENCHMARK_ROUTES], {
    'GET /benchmarks/crrem/sites': crremSitesQuery,
    'GET /benchmarks/crrem/sites/{id}': crremSiteQuery,
    'GET /benchmarks/{kind}/sites': energySitesQuery,
  }),
};
