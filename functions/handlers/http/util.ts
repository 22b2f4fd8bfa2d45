import { IMPORTS_AREA } from '../../../shared/system/areas/imports.ts';
import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { KIOSK_AREA } from '../../../shared/system/areas/kiosk.ts';
import { LOOKUPS_AREA } from '../../../shared/system/areas/lookups.ts';
import { MARKETPLACE_AREA } from '../../../shared/system/areas/marketplace.ts';
import { SEARCH_AREA } from '../../../shared/system/areas/search.ts';
import { STAFF_TOOLS_AREA } from '../../../shared/system/areas/staff-tools.ts';
import { ASSET_CERTIFICATE_LIST_OPERATIONS } from '../../assets/asset-certificate-list-service.ts';
import { COMPANY_LOGO_SEARCH_OPERATIONS } from '../../company/company-logo-search-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { LOG_OPERATIONS } from '../../imports/log-service.ts';
import { KIOSK_OPERATIONS } from '../../kiosk/kiosk-service.ts';
import { LOOKUP_OPERATIONS } from '../../lookups/lookup-service.ts';
import { MARKETPLACE_STAFF_OPERATIONS } from '../../marketplace/carbon-market-service.ts';
import { SEARCH_OPERATIONS } from '../../search/search-operations.ts';
import { STAFF_ADMIN_OPERATIONS } from '../../staff-tools/admin-service.ts';
import { EMAIL_OPERATIONS } from '../../staff-tools/email-service.ts';
import { GAS_PREDICTION_OPERATIONS } from '../../staff-tools/gas-prediction-service.ts';
import { GLOBAL_STATS_OPERATIONS } from '../../staff-tools/global-stats-service.ts';
import { GRIDFETCH_OPERATIONS } from '../../staff-tools/gridfetch-service.ts';
import '../../../shared/system/resource-schemas/util.ts';

export const handler = httpFunction(
  'util',
  [LOOKUPS_AREA, IMPORTS_AREA, STAFF_TOOLS_AREA, KIOSK_AREA, INVOICES_AREA, MARKETPLACE_AREA, SEARCH_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...EMAIL_OPERATIONS,
    ...KIOSK_OPERATIONS,
    ...LOOKUP_OPERATIONS,
    ...MARKETPLACE_STAFF_OPERATIONS,
    ...SEARCH_OPERATIONS,
    ...ASSET_CERTIFICATE_LIST_OPERATIONS,
    ...COMPANY_LOGO_SEARCH_OPERATIONS,
    ...GAS_PREDICTION_OPERATIONS,
    ...GLOBAL_STATS_OPERATIONS,
    ...GRIDFETCH_OPERATIONS,
    ...LOG_OPERATIONS,
    ...STAFF_ADMIN_OPERATIONS,
  },
);
