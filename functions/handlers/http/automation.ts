import { AUTOMATION_AREA } from '../../../shared/system/areas/automation.ts';
import { IMPORTS_AREA } from '../../../shared/system/areas/imports.ts';
import '../record-import-kinds.ts';
import { AUTOMATION_OPERATIONS } from '../../automation/automation-service.ts';
import { SCRAPER_RUN_OPERATIONS } from '../../automation/scraper-run-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { IMPORT_ADAPTER_OPERATIONS, IMPORTS_OPERATIONS } from '../../imports/index.ts';
import '../../../shared/system/resource-schemas/automation.ts';

export const handler = httpFunction('automation', [IMPORTS_AREA, AUTOMATION_AREA], {
  ...GENERIC_OPERATIONS,
  ...SCRAPER_RUN_OPERATIONS,
  ...AUTOMATION_OPERATIONS,
  ...IMPORTS_OPERATIONS,
  ...IMPORT_ADAPTER_OPERATIONS,
});
