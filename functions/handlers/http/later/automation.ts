import '../../record-import-kinds.ts';
import { AUTOMATION_OPERATIONS } from '../../../automation/automation-service.ts';
import { SCRAPER_RUN_OPERATIONS } from '../../../automation/scraper-run-service.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { IMPORT_ADAPTER_OPERATIONS, IMPORTS_OPERATIONS } from '../../../imports/index.ts';

/**
 * The automation function's own operations: running automations and connectors, their files, and the
 * imports (the wizard's steps, the one-call consumption upload and their reads), loaded on the first call
 * of one with the planners of every kind of record import.
 */
export const LATER_OPERATIONS: Operations = {
  ...SCRAPER_RUN_OPERATIONS,
  ...AUTOMATION_OPERATIONS,
  ...IMPORTS_OPERATIONS,
  ...IMPORT_ADAPTER_OPERATIONS,
};
