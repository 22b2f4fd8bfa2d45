import { ANALYTICS_OPERATIONS } from '../../../analytics/analytics-service.ts';
import { ASSET_DOCUMENT_OPERATIONS } from '../../../assets/asset-document-service.ts';
import { ASSET_IMAGE_OPERATIONS } from '../../../assets/asset-image-service.ts';
import { ASSET_STATUS_OPERATIONS } from '../../../assets/asset-status-service.ts';
import { ASSET_WIZARD_OPERATIONS } from '../../../assets/asset-wizard-service.ts';
import { ASSET_WRITE_OPERATIONS } from '../../../assets/asset-write-service.ts';
import { EPC_OPERATIONS } from '../../../assets/epc-service.ts';
import { EXTERNAL_DATA_OPERATIONS } from '../../../assets/external-data-service.ts';
import { PROJECT_OPERATIONS } from '../../../assets/project-service.ts';
import { TENANT_OPERATIONS } from '../../../assets/tenant-service.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { RECOMMENDATION_OPERATIONS } from '../../../recommendations/recommendation-service.ts';

/** The assets function's operations other than the site list's, loaded on the first call of one. */
export const LATER_OPERATIONS: Operations = {
  ...ANALYTICS_OPERATIONS,
  ...ASSET_DOCUMENT_OPERATIONS,
  ...ASSET_IMAGE_OPERATIONS,
  ...ASSET_STATUS_OPERATIONS,
  ...ASSET_WIZARD_OPERATIONS,
  ...ASSET_WRITE_OPERATIONS,
  ...EPC_OPERATIONS,
  ...EXTERNAL_DATA_OPERATIONS,
  ...PROJECT_OPERATIONS,
  ...RECOMMENDATION_OPERATIONS,
  ...TENANT_OPERATIONS,
};
