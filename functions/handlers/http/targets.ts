import { BENCHMARKS_AREA } from '../../../shared/system/areas/benchmarks.ts';
import { TARGETS_AREA } from '../../../shared/system/areas/targets.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { TARGET_READ_OPERATIONS } from '../../targets/target-reads.ts';

/**
 * Targets, the regulatory calendar and benchmarks: served apart from the Insights figures so that neither
 * function carries the other's code into its cold start. The targets page (the list, the scopes and the
 * progress figures) is most of its calls: the targets' writes, the calendar and the benchmarks (CRREM
 * pathways, energy figures) load on the first call of one of theirs, so a cold start serving the targets
 * page does not carry them.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/targets.ts')).LATER_OPERATIONS;

/** The benchmark tables parse no stored shape (later/targets.ts). */
const BENCHMARK_READS = [
  'benchmarks.crremSites',
  'benchmarks.crremSite',
  'benchmarks.pathwaySets',
  'benchmarks.uploadPathways',
  'benchmarks.energySites',
];

/**
 * The stored shapes of targets and benchmark sets are parsed by the generic calls and the targets' writes:
 * built on the first of those. The targets' reads and the benchmark tables parse none.
 */
registerResourceSchemasLater('targets', () => import('../../../shared/system/resource-schemas/targets.ts'));

export const handler = httpFunction(
  'targets',
  [BENCHMARKS_AREA, TARGETS_AREA],
  { ...GENERIC_OPERATIONS, ...TARGET_READ_OPERATIONS },
  {
    later: laterOperations,
    withoutResourceSchemas: [...Object.keys(TARGET_READ_OPERATIONS), ...BENCHMARK_READS],
  },
);
