import { httpFunction } from '../../middleware/http-function.ts';
import { COMPANY_ADMIN_OPERATIONS } from '../../services/company-admin-service.ts';
import { COMPANY_LOGO_OPERATIONS } from '../../services/company-logo-service.ts';
import { COMPANY_USER_OPERATIONS } from '../../services/company-users-service.ts';
import { MACHINE_OPERATIONS } from '../../services/machine-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { ROLE_OPERATIONS } from '../../services/role-service.ts';
import '../../../shared/system/resource-schemas/companies.ts';

export const handler = httpFunction('companies', {
  ...GENERIC_OPERATIONS,
  ...COMPANY_ADMIN_OPERATIONS,
  ...COMPANY_LOGO_OPERATIONS,
  ...COMPANY_USER_OPERATIONS,
  ...MACHINE_OPERATIONS,
  ...ROLE_OPERATIONS,
});
