import * as automation from '../../schemas/automation.ts';
import * as billing from '../../schemas/billing.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the automation function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('automation', {
  'scraper-runs': { schema: billing.scraperRunSchema },
  imports: { schema: billing.importSchema },
  'import-templates': { schema: billing.importTemplateSchema },
  automations: { schema: automation.automationSchema },
  'automation-runs': { schema: automation.automationRunSchema },
});
