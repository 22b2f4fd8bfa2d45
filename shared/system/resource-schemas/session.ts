import * as company from '../../schemas/company.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the session function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('session', {
  users: { schema: company.userSchema },
  notifications: { schema: company.notificationSchema },
});
