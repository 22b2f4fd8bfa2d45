import * as portfolio from '../../schemas/portfolio.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the asset-groups function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('asset-groups', {
  'asset-groups': { schema: portfolio.assetGroupSchema },
});
