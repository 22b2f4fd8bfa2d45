import { AUTOMATION_AREA } from '../../../shared/system/areas/automation.ts';
import { IMPORTS_AREA } from '../../../shared/system/areas/imports.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { AUTOMATION_OPERATIONS } from '../../automation/automation-service.ts';
import { SCRAPER_RUN_OPERATIONS } from '../../automation/scraper-run-service.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';

/**
 * An import's own calls load on the first call of one, with the import machinery (reading files, planning
 * and writing rows of every kind): a cold start serving the lists of imports, automations and their runs
 * carries none of it.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/automation.ts')).LATER_OPERATIONS;

/**
 * The schemas of imports, automations, their runs and import templates are built on the first call of an
 * operation not listed below, so a cold start builds none.
 */
registerResourceSchemasLater(
  'automation',
  () => import('../../../shared/system/resource-schemas/automation.ts'),
);

export const handler = httpFunction(
  'automation',
  [IMPORTS_AREA, AUTOMATION_AREA],
  { ...GENERIC_OPERATIONS, ...SCRAPER_RUN_OPERATIONS, ...AUTOMATION_OPERATIONS },
  {
    later: laterOperations,
    withoutResourceSchemas: [
      'generic.get',
      'automation.templates',
      'automationRuns.errorCodes',
      'scraperRuns.connectors',
    ],
  },
);
