import { httpFunction } from '../../middleware/http-function.ts';
import { API_ACCESS_OPERATIONS } from '../../services/api-access-service.ts';
import { ASSET_GROUP_SESSION_OPERATIONS } from '../../services/asset-group-session-service.ts';
import { CLIENT_ERROR_OPERATIONS } from '../../services/client-error-service.ts';
import { COMPANY_USER_OPERATIONS } from '../../services/company-users-service.ts';
import { MFA_OPERATIONS } from '../../services/mfa-service.ts';
import { PROFILE_OPERATIONS } from '../../services/profile-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { SESSION_OPERATIONS } from '../../services/session-service.ts';
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
});
