import { BENCHMARKS_AREA } from '../../../shared/system/areas/benchmarks.ts';
import { TARGETS_AREA } from '../../../shared/system/areas/targets.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { BENCHMARK_OPERATIONS } from '../../benchmarks/index.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';

/**
 * Targets, the regulatory calendar and benchmarks: served apart from the Insights figures so that neither
 * function carries the other's code into its cold start. Benchmarks are most of its calls (the CRREM table
 * above all): targets and the calendar load on the first call of one of theirs, so a cold start serving
 * benchmarks does not carry them.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/targets.ts')).LATER_OPERATIONS;

/**
 * The stored shapes of targets and benchmark sets are parsed by the generic calls and the targets' writes:
 * built on the first of those. The benchmark tables parse none.
 */
registerResourceSchemasLater('targets', () => import('../../../shared/system/resource-schemas/targets.ts'));

export const handler = httpFunction(
  'targets',
  [BENCHMARKS_AREA, TARGETS_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...BENCHMARK_OPERATIONS,
  },
  { later: laterOperations, withoutResourceSchemas: Object.keys(BENCHMARK_OPERATIONS) },
);
