import { ASSET_CERTIFICATE_LIST_OPERATIONS } from '../../../assets/asset-certificate-list-service.ts';
import { COMPANY_LOGO_SEARCH_OPERATIONS } from '../../../company/company-logo-search-service.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { LOG_OPERATIONS } from '../../../imports/log-service.ts';
import { KIOSK_OPERATIONS } from '../../../kiosk/kiosk-service.ts';
import { MARKETPLACE_STAFF_OPERATIONS } from '../../../marketplace/carbon-market-service.ts';
import { STAFF_ADMIN_OPERATIONS } from '../../../staff-tools/admin-service.ts';
import { EMAIL_OPERATIONS } from '../../../staff-tools/email-service.ts';
import { GAS_PREDICTION_OPERATIONS } from '../../../staff-tools/gas-prediction-service.ts';
import { GLOBAL_STATS_OPERATIONS } from '../../../staff-tools/global-stats-service.ts';
import { GRIDFETCH_OPERATIONS } from '../../../staff-tools/gridfetch-service.ts';

/** The util function's operations other than lookups and search, loaded on the first call of one. */
export const LATER_OPERATIONS: Operations = {
  ...EMAIL_OPERATIONS,
  ...KIOSK_OPERATIONS,
  ...MARKETPLACE_STAFF_OPERATIONS,
  ...ASSET_CERTIFICATE_LIST_OPERATIONS,
  ...COMPANY_LOGO_SEARCH_OPERATIONS,
  ...GAS_PREDICTION_OPERATIONS,
  ...GLOBAL_STATS_OPERATIONS,
  ...GRIDFETCH_OPERATIONS,
  ...LOG_OPERATIONS,
  ...STAFF_ADMIN_OPERATIONS,
};
