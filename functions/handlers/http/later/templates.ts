import type { Operations } from '../../../core/middleware/api-context.ts';
import { TEMPLATE_SAMPLE_OPERATIONS } from '../../../suppliers/template-sample-service.ts';
import { TEMPLATE_OPERATIONS } from '../../../suppliers/template-service.ts';

/** The templates function's template editor operations, loaded on the first call of one. */
export const LATER_OPERATIONS: Operations = { ...TEMPLATE_OPERATIONS, ...TEMPLATE_SAMPLE_OPERATIONS };
