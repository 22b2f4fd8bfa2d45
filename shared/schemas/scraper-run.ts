import * as z from 'zod';
import { idSchema } from './common.ts';

export const scraperRunSchema = z.object({
  supplierId: idSchema,
  accountId: idSchema.optional(),
  status: z.enum(['pending', 'running', 'succeeded', 'failed']).default('pending'),
});
