import { BENCHMARKS_AREA } from '../../../shared/system/areas/benchmarks.ts';
import { TARGETS_AREA } from '../../../shared/system/areas/targets.ts';
import { BENCHMARK_OPERATIONS } from '../../benchmarks/index.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { CALENDAR_OPERATIONS, TARGET_OPERATIONS } from '../../targets/index.ts';
import '../../../shared/system/resource-schemas/targets.ts';

/**
 * Targets, the regulatory calendar and benchmarks: served apart from the Insights figures so that neither
 * function carries the other's code into its cold start.
 */
export const handler = httpFunction('targets', [BENCHMARKS_AREA, TARGETS_AREA], {
  ...GENERIC_OPERATIONS,
  ...TARGET_OPERATIONS,
  ...CALENDAR_OPERATIONS,
  ...BENCHMARK_OPERATIONS,
});
