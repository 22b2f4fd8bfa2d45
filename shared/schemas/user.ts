import * as z from 'zod';
import { PERMISSION_NAMES } from '../access/permission-names.ts';
import { idSchema, nonEmpty } from './common.ts';
import { grantsSchema } from './grants.ts';

export const userSchema = z.object({
  email: z.string().trim().email('Must be a valid e-mail address'),
  name: nonEmpty.max(200),
  roleId: idSchema.optional(),
  permissions: z.array(z.enum(PERMISSION_NAMES)).default([]),
  grants: z._default(grantsSchema, {
    entities: { read: [], write: [] },
    assets: { read: [], write: [] },
    accounts: { read: [], write: [] },
  }),
});
