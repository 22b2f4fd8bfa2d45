import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { PORTFOLIOS_AREA } from '../../../shared/system/areas/portfolios.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { ANALYTICS_OPERATIONS } from '../../analytics/analytics-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { ASSET_GROUP_REPORT_OPERATIONS } from '../../portfolios/asset-group-report-service.ts';
import { ASSET_GROUP_OPERATIONS } from '../../portfolios/asset-group-service.ts';

/**
 * The portfolio schema is built on the first call that parses a portfolio (a write, a filtered list), not
 * at start: the function's frequent calls are reads.
 */
registerResourceSchemasLater(
  'asset-groups',
  () => import('../../../shared/system/resource-schemas/asset-groups.ts'),
);

export const handler = httpFunction(
  'asset-groups',
  [PORTFOLIOS_AREA, ANALYTICS_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...ANALYTICS_OPERATIONS,
    ...ASSET_GROUP_OPERATIONS,
    ...ASSET_GROUP_REPORT_OPERATIONS,
  },
  {
    withoutResourceSchemas: [
      'generic.get',
      'assetGroups.assets',
      'assetGroups.searchAssets',
      'assetGroups.floorArea',
      'assetGroups.reportData',
    ],
  },
);
