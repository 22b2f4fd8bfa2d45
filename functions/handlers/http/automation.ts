import { AUTOMATION_AREA } from '../../../shared/system/areas/automation.ts';
import { IMPORTS_AREA } from '../../../shared/system/areas/imports.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';

/**
 * The lists and pages of imports, automations and their runs are the generic calls, most of the function's
 * traffic; its own operations (running an automation or a connector, the import wizard's steps) load on
 * the first call of one, with the import machinery (reading files, planning and writing rows of every
 * kind), so a cold start serving the lists carries none of it.
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

export const handler = httpFunction('automation', [IMPORTS_AREA, AUTOMATION_AREA], GENERIC_OPERATIONS, {
  later: laterOperations,
  withoutResourceSchemas: [
    'generic.get',
    'automation.templates',
    'automationRuns.errorCodes',
    'scraperRuns.connectors',
  ],
});
