import { notificationSchema } from '../../schemas/notification.ts';
import { userSchema } from '../../schemas/user.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the session function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('session', {
  users: { schema: userSchema },
  notifications: { schema: notificationSchema },
});
