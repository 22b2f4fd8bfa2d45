import { httpFunction } from '../../middleware/http-function.ts';
import { ASSET_CERTIFICATE_LIST_OPERATIONS } from '../../services/asset-certificate-list-service.ts';
import { COMPANY_LOGO_SEARCH_OPERATIONS } from '../../services/company-logo-search-service.ts';
import { EMAIL_OPERATIONS } from '../../services/email-service.ts';
import { GAS_PREDICTION_OPERATIONS } from '../../services/gas-prediction-service.ts';
import { GLOBAL_STATS_OPERATIONS } from '../../services/global-stats-service.ts';
import { GRIDFETCH_OPERATIONS } from '../../services/gridfetch-service.ts';
import { KIOSK_OPERATIONS } from '../../services/kiosk-service.ts';
import { LOOKUP_OPERATIONS } from '../../services/lookup-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { SEARCH_OPERATIONS } from '../../services/search-service.ts';
import '../../../shared/system/resource-schemas/util.ts';

export const handler = httpFunction('util', {
  ...GENERIC_OPERATIONS,
  ...EMAIL_OPERATIONS,
  ...KIOSK_OPERATIONS,
  ...LOOKUP_OPERATIONS,
  ...SEARCH_OPERATIONS,
  ...ASSET_CERTIFICATE_LIST_OPERATIONS,
  ...COMPANY_LOGO_SEARCH_OPERATIONS,
  ...GAS_PREDICTION_OPERATIONS,
  ...GLOBAL_STATS_OPERATIONS,
  ...GRIDFETCH_OPERATIONS,
});
