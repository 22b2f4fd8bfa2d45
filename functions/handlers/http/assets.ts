import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { ASSETS_AREA } from '../../../shared/system/areas/assets.ts';
import { RECOMMENDATIONS_AREA } from '../../../shared/system/areas/recommendations.ts';
import { ANALYTICS_OPERATIONS } from '../../analytics/analytics-service.ts';
import { ASSET_DOCUMENT_OPERATIONS } from '../../assets/asset-document-service.ts';
import { ASSET_IMAGE_OPERATIONS } from '../../assets/asset-image-service.ts';
import { ASSET_LIST_OPERATIONS } from '../../assets/asset-list-service.ts';
import { ASSET_STATUS_OPERATIONS } from '../../assets/asset-status-service.ts';
import { ASSET_WIZARD_OPERATIONS } from '../../assets/asset-wizard-service.ts';
import { ASSET_WRITE_OPERATIONS } from '../../assets/asset-write-service.ts';
import { EPC_OPERATIONS } from '../../assets/epc-service.ts';
import { EXTERNAL_DATA_OPERATIONS } from '../../assets/external-data-service.ts';
import { PROJECT_OPERATIONS } from '../../assets/project-service.ts';
import type { OpContext, Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { RECOMMENDATION_OPERATIONS } from '../../recommendations/recommendation-service.ts';
import '../../../shared/system/resource-schemas/assets.ts';

/**
 * Site imports load their planner (and the import machinery under it) on first use: few calls need it,
 * and every cold start of the function would otherwise carry it.
 */
const importOperation = (name: 'assets.import' | 'assets.importRollback') => async (ctx: OpContext) => {
  const { ASSET_IMPORT_OPERATIONS } = await import('../../assets/asset-import-service.ts');
  const op = ASSET_IMPORT_OPERATIONS[name];
  if (!op) throw new Error(`${name} is not an operation of site imports`);
  return op(ctx);
};

const ASSET_IMPORT_OPERATIONS: Operations = {
  'assets.import': importOperation('assets.import'),
  'assets.importRollback': importOperation('assets.importRollback'),
};

export const handler = httpFunction('assets', [ASSETS_AREA, RECOMMENDATIONS_AREA, ANALYTICS_AREA], {
  ...GENERIC_OPERATIONS,
  ...ANALYTICS_OPERATIONS,
  ...ASSET_IMPORT_OPERATIONS,
  ...ASSET_LIST_OPERATIONS,
  ...ASSET_WIZARD_OPERATIONS,
  ...ASSET_WRITE_OPERATIONS,
  ...ASSET_STATUS_OPERATIONS,
  ...ASSET_DOCUMENT_OPERATIONS,
  ...ASSET_IMAGE_OPERATIONS,
  ...EXTERNAL_DATA_OPERATIONS,
  ...EPC_OPERATIONS,
  ...PROJECT_OPERATIONS,
  ...RECOMMENDATION_OPERATIONS,
});
