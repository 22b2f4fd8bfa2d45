import * as z from 'zod';
import { PERMISSION_NAMES } from '../access/permission-names.ts';
import { nonEmpty } from './common.ts';

export const roleSchema = z.object({
  name: nonEmpty.max(100),
  permissions: z.array(z.enum(PERMISSION_NAMES)).default([]),
});
