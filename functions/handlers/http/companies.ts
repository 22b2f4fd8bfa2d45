import { COMPANY_AREA } from '../../../shared/system/areas/company.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { COMPANY_ADMIN_OPERATIONS } from '../../company/company-admin-service.ts';
import { COMPANY_LOGO_OPERATIONS } from '../../company/company-logo-service.ts';
import { COMPANY_USER_OPERATIONS } from '../../company/company-users-service.ts';
import { MACHINE_OPERATIONS } from '../../company/machine-service.ts';
import { ROLE_OPERATIONS } from '../../company/role-service.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';

/**
 * The schemas of companies, roles, permissions and settings are built on the first call of an operation
 * not listed below: reading a company, the lists of users, roles and machines, and the validation rules
 * parse none.
 */
registerResourceSchemasLater(
  'companies',
  () => import('../../../shared/system/resource-schemas/companies.ts'),
);

export const handler = httpFunction(
  'companies',
  [COMPANY_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...COMPANY_ADMIN_OPERATIONS,
    ...COMPANY_LOGO_OPERATIONS,
    ...COMPANY_USER_OPERATIONS,
    ...MACHINE_OPERATIONS,
    ...ROLE_OPERATIONS,
  },
  {
    withoutResourceSchemas: [
      'generic.get',
      'companies.global',
      'companies.roles',
      'companyUsers.list',
      'companyUsers.get',
      'companies.validationRules',
      'machines.list',
    ],
  },
);
