import { entitySchema } from '../../schemas/entity.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the entities function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('entities', {
  entities: { schema: entitySchema },
});
