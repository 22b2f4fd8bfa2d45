import * as z from 'zod';
import { nonEmpty } from './common.ts';

export const settingSchema = z.object({
  key: nonEmpty.max(100),
  value: z.unknown(),
});
