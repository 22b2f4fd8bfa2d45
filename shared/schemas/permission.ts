import * as z from 'zod';
import { nonEmpty } from './common.ts';
import { grantsSchema } from './grants.ts';

export const permissionSchema = z.object({
  name: nonEmpty.max(100),
  userSub: z.string().optional(),
  grants: grantsSchema,
});
