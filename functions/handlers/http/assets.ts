import { httpFunction } from '../../middleware/http-function.ts';
import { ASSET_DOCUMENT_OPERATIONS } from '../../services/asset-document-service.ts';
import { ASSET_IMAGE_OPERATIONS } from '../../services/asset-image-service.ts';
import { ASSET_IMPORT_OPERATIONS } from '../../services/asset-import-service.ts';
import { ASSET_LIST_OPERATIONS } from '../../services/asset-list-service.ts';
import { ASSET_STATUS_OPERATIONS } from '../../services/asset-status-service.ts';
import { ASSET_WIZARD_OPERATIONS } from '../../services/asset-wizard-service.ts';
import { EPC_OPERATIONS } from '../../services/epc-service.ts';
import { EXTERNAL_DATA_OPERATIONS } from '../../services/external-data-service.ts';
import { PROJECT_OPERATIONS } from '../../services/project-service.ts';
import { RECOMMENDATION_OPERATIONS } from '../../services/recommendation-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/assets.ts';

export const handler = httpFunction('assets', {
  ...GENERIC_OPERATIONS,
  ...ASSET_IMPORT_OPERATIONS,
  ...ASSET_LIST_OPERATIONS,
  ...ASSET_WIZARD_OPERATIONS,
  ...ASSET_STATUS_OPERATIONS,
  ...ASSET_DOCUMENT_OPERATIONS,
  ...ASSET_IMAGE_OPERATIONS,
  ...EXTERNAL_DATA_OPERATIONS,
  ...EPC_OPERATIONS,
  ...PROJECT_OPERATIONS,
  ...RECOMMENDATION_OPERATIONS,
});
