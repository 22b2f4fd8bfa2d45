import { httpFunction } from '../../middleware/http-function.ts';
import { ASSET_GROUP_REPORT_OPERATIONS } from '../../services/asset-group-report-service.ts';
import { ASSET_GROUP_OPERATIONS } from '../../services/asset-group-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/asset-groups.ts';

export const handler = httpFunction('asset-groups', {
  ...GENERIC_OPERATIONS,
  ...ASSET_GROUP_OPERATIONS,
  ...ASSET_GROUP_REPORT_OPERATIONS,
});
