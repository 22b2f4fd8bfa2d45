import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { PORTFOLIOS_AREA } from '../../../shared/system/areas/portfolios.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
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

/**
 * A portfolio's figures load their analytics (and the emission factor tables under them) on the first call
 * of one: the portfolio list and pages, most of the function's calls, start without them.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('../../analytics/analytics-service.ts')).ANALYTICS_OPERATIONS;

export const handler = httpFunction(
  'asset-groups',
  [PORTFOLIOS_AREA, ANALYTICS_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...ASSET_GROUP_OPERATIONS,
    ...ASSET_GROUP_REPORT_OPERATIONS,
  },
  {
    later: laterOperations,
    withoutResourceSchemas: [
      'generic.get',
      'assetGroups.assets',
      'assetGroups.searchAssets',
      'assetGroups.floorArea',
      'assetGroups.reportData',
    ],
  },
);
