import { DASHBOARD_HOME_OPERATIONS } from '../../analytics/index.ts';
import { COMPANY_USER_OPERATIONS } from '../../company/company-users-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { ASSET_GROUP_SESSION_OPERATIONS } from '../../portfolios/asset-group-session-service.ts';
import { API_ACCESS_OPERATIONS } from '../../profile/api-access-service.ts';
import { CLIENT_ERROR_OPERATIONS } from '../../profile/client-error-service.ts';
import { MFA_OPERATIONS } from '../../profile/mfa-service.ts';
import { PROFILE_OPERATIONS } from '../../profile/profile-service.ts';
import { SESSION_OPERATIONS } from '../../profile/session-service.ts';
import '../../../shared/system/resource-schemas/session.ts';

export const handler = httpFunction('session', {
  ...GENERIC_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...API_ACCESS_OPERATIONS,
  ...MFA_OPERATIONS,
  ...CLIENT_ERROR_OPERATIONS,
  ...PROFILE_OPERATIONS,
  ...COMPANY_USER_OPERATIONS,
  ...ASSET_GROUP_SESSION_OPERATIONS,
  ...DASHBOARD_HOME_OPERATIONS,
});
