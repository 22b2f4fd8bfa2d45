import * as company from '../../schemas/company.ts';
import * as insights from '../../schemas/insights.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the collaboration function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('collaboration', {
  messages: {
    schema: company.messageSchema,
    subResources: {
      replies: company.replySchema,
    },
  },
  'marketplace/carbon': { schema: insights.carbonProjectSchema },
});
