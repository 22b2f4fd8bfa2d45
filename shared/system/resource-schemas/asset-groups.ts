import { assetGroupSchema } from '../../schemas/asset-group.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the asset-groups function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('asset-groups', {
  'asset-groups': { schema: assetGroupSchema },
});
