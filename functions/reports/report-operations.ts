import type { Operations } from '../core/middleware/api-context.ts';
import { REPORT_REQUEST_OPERATIONS } from './report-service.ts';
import { REPORT_TEMPLATE_OPERATIONS } from './report-template-service.ts';
import { SCHEDULE_OPERATIONS } from './schedule-service.ts';

/** Every call of the reports area the insights function serves. */
export const REPORT_OPERATIONS: Operations = {
  ...REPORT_REQUEST_OPERATIONS,
  ...REPORT_TEMPLATE_OPERATIONS,
  ...SCHEDULE_OPERATIONS,
};
