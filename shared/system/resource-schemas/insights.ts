import * as insights from '../../schemas/insights.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the insights function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('insights', {
  dashboards: { schema: insights.dashboardSchema },
  widgets: { schema: insights.widgetSchema },
  reports: { schema: insights.reportSchema },
  'report-templates': { schema: insights.reportTemplateSchema },
  'scheduled-reports': { schema: insights.scheduledReportSchema },
});
