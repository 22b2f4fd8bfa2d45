import * as z from 'zod';
import { idSchema } from './common.ts';

export const importSchema = z.object({
  type: z.enum(['assets', 'accounts', 'entities', 'invoices', 'consumption', 'contracts']),
  importTemplateId: idSchema.optional(),
  status: z.enum(['pending', 'mapping', 'preview', 'importing', 'completed', 'error']).default('pending'),
  fileKey: z.string().optional(),
  mapping: z.record(z.string(), z.string()).default({}),
  batchId: z.string().optional(),
});
