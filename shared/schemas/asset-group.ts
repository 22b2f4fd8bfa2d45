import * as z from 'zod';
import { idSchema, nonEmpty } from './common.ts';

export const assetGroupSchema = z.object({
  name: nonEmpty.max(200),
  description: z.string().max(2000).optional(),
  assetIds: z.array(idSchema).default([]),
});
