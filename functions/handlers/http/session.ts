import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { COMPANY_AREA } from '../../../shared/system/areas/company.ts';
import { NOTIFICATIONS_AREA } from '../../../shared/system/areas/notifications.ts';
import { PORTFOLIOS_AREA } from '../../../shared/system/areas/portfolios.ts';
import { PROFILE_AREA } from '../../../shared/system/areas/profile.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
// Straight from its module, not the analytics area's index: through the index, the start would read the
// figures' code and factor tables that other analytics exports bring, which the home dashboard's list never runs.
import { DASHBOARD_HOME_OPERATIONS } from '../../analytics/dashboard-home-service.ts';
import { COMPANY_USER_OPERATIONS } from '../../company/company-users-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { ASSET_GROUP_SESSION_OPERATIONS } from '../../portfolios/asset-group-session-service.ts';
import { API_ACCESS_OPERATIONS } from '../../profile/api-access-service.ts';
import { CLIENT_ERROR_OPERATIONS } from '../../profile/client-error-service.ts';
import { MFA_OPERATIONS } from '../../profile/mfa-service.ts';
import { PROFILE_OPERATIONS } from '../../profile/profile-service.ts';
import { SESSION_OPERATIONS } from '../../profile/session-service.ts';

/** The session function's resource schemas are built on the first call that needs them, not at start. */
registerResourceSchemasLater('session', () => import('../../../shared/system/resource-schemas/session.ts'));

export const handler = httpFunction(
  'session',
  [PORTFOLIOS_AREA, COMPANY_AREA, PROFILE_AREA, NOTIFICATIONS_AREA, ANALYTICS_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...SESSION_OPERATIONS,
    ...API_ACCESS_OPERATIONS,
    ...MFA_OPERATIONS,
    ...CLIENT_ERROR_OPERATIONS,
    ...PROFILE_OPERATIONS,
    ...COMPANY_USER_OPERATIONS,
    ...ASSET_GROUP_SESSION_OPERATIONS,
    ...DASHBOARD_HOME_OPERATIONS,
  },
  // What the app asks for when it opens: none of these parses a user or a notification.
  { withoutResourceSchemas: ['me', 'myCompany', 'myPermissions', 'myCompanies', 'myNotifications'] },
);
