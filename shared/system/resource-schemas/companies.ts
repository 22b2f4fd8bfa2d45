import * as company from '../../schemas/company.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the companies function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('companies', {
  companies: { schema: company.companySchema },
  roles: { schema: company.roleSchema },
  permissions: { schema: company.permissionSchema },
  settings: { schema: company.settingSchema },
});
