import * as z from 'zod';
import { idSchema } from './common.ts';

export const VALIDATION_STATUSES = ['pending', 'passed', 'warning', 'failed', 'error'] as const;

export const invoiceValidationSchema = z.object({
  status: z.enum(VALIDATION_STATUSES).default('pending'),
  invoiceId: idSchema.optional(),
  assignedUserId: z.string().optional(),
  supplierId: idSchema.optional(),
  tags: z.array(z.string().max(50)).default([]),
  hold: z.boolean().default(false),
  completed: z.boolean().default(false),
});
