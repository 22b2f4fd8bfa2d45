import { FACTOR_SET_OPERATIONS } from '../../../analytics/factor-set-service.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { REPORT_OPERATIONS } from '../../../reports/index.ts';

/** The insights function's report and factor set operations, loaded on the first call of one. */
export const LATER_OPERATIONS: Operations = { ...REPORT_OPERATIONS, ...FACTOR_SET_OPERATIONS };
