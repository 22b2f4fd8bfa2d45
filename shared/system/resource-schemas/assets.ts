import { tenantSchema } from '../../schemas/asset-tenants.ts';
import * as portfolio from '../../schemas/portfolio.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the assets function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('assets', {
  assets: {
    schema: portfolio.assetSchema,
    subResources: {
      'timeline-events': portfolio.timelineEventSchema,
      'status-history': portfolio.statusHistorySchema,
      tenants: tenantSchema,
    },
  },
  projects: {
    schema: portfolio.projectSchema,
    subResources: {
      tasks: portfolio.taskSchema,
    },
  },
  recommendations: { schema: portfolio.recommendationSchema },
});
