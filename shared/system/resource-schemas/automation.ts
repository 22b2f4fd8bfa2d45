import * as automation from '../../schemas/automation.ts';
import { importSchema } from '../../schemas/data-import.ts';
import { importTemplateSchema } from '../../schemas/import-template.ts';
import { scraperRunSchema } from '../../schemas/scraper-run.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the automation function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('automation', {
  'scraper-runs': { schema: scraperRunSchema },
  imports: { schema: importSchema },
  'import-templates': { schema: importTemplateSchema },
  automations: { schema: automation.automationSchema },
  'automation-runs': { schema: automation.automationRunSchema },
});
