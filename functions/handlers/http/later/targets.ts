import { BENCHMARK_OPERATIONS } from '../../../benchmarks/benchmarks-service.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { CALENDAR_OPERATIONS } from '../../../targets/calendar-service.ts';
import { TARGET_OPERATIONS } from '../../../targets/target-service.ts';

/**
 * The targets function's target writes, regulatory calendar and benchmarks, loaded on the first call of
 * one of theirs.
 */
export const LATER_OPERATIONS: Operations = {
  ...TARGET_OPERATIONS,
  ...CALENDAR_OPERATIONS,
  ...BENCHMARK_OPERATIONS,
};
