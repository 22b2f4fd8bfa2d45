import { assetSchema } from '../../schemas/asset.ts';
import { tenantSchema } from '../../schemas/asset-tenants.ts';
import { projectSchema, taskSchema } from '../../schemas/project.ts';
import { recommendationSchema } from '../../schemas/recommendation.ts';
import { statusHistorySchema } from '../../schemas/status-history.ts';
import { timelineEventSchema } from '../../schemas/timeline-event.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the assets function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('assets', {
  assets: {
    schema: assetSchema,
    subResources: {
      'timeline-events': timelineEventSchema,
      'status-history': statusHistorySchema,
      tenants: tenantSchema,
    },
  },
  projects: {
    schema: projectSchema,
    subResources: {
      tasks: taskSchema,
    },
  },
  recommendations: { schema: recommendationSchema },
});
