import { companySchema } from '../../schemas/company.ts';
import { permissionSchema } from '../../schemas/permission.ts';
import { roleSchema } from '../../schemas/role.ts';
import { settingSchema } from '../../schemas/setting.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the companies function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('companies', {
  companies: { schema: companySchema },
  roles: { schema: roleSchema },
  permissions: { schema: permissionSchema },
  settings: { schema: settingSchema },
});
