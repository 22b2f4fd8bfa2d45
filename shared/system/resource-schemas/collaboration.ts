import { carbonProjectSchema } from '../../schemas/carbon-project.ts';
import { messageSchema, replySchema } from '../../schemas/message.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the collaboration function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('collaboration', {
  messages: {
    schema: messageSchema,
    subResources: {
      replies: replySchema,
    },
  },
  'marketplace/carbon': { schema: carbonProjectSchema },
});
