import * as billing from '../../schemas/billing.ts';
import * as insights from '../../schemas/insights.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the automation function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('automation', {
  'scraper-runs': { schema: billing.scraperRunSchema },
  imports: { schema: billing.importSchema },
  'import-templates': { schema: billing.importTemplateSchema },
  automations: { schema: insights.automationSchema },
  'automation-runs': { schema: insights.automationRunSchema },
});
