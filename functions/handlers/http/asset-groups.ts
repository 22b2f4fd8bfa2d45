import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { PORTFOLIOS_AREA } from '../../../shared/system/areas/portfolios.ts';
import { ANALYTICS_OPERATIONS } from '../../analytics/analytics-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { ASSET_GROUP_REPORT_OPERATIONS } from '../../portfolios/asset-group-report-service.ts';
import { ASSET_GROUP_OPERATIONS } from '../../portfolios/asset-group-service.ts';
import '../../../shared/system/resource-schemas/asset-groups.ts';

export const handler = httpFunction('asset-groups', [PORTFOLIOS_AREA, ANALYTICS_AREA], {
  ...GENERIC_OPERATIONS,
  ...ANALYTICS_OPERATIONS,
  ...ASSET_GROUP_OPERATIONS,
  ...ASSET_GROUP_REPORT_OPERATIONS,
});
