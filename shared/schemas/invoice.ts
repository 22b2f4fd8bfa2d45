import * as z from 'zod';
import { idSchema, isoDate } from './common.ts';

export const INVOICE_STATUSES = [
  'uploading',
  'queued',
  'pending',
  'processing',
  'captured',
  'error',
  'manual',
  'completed',
] as const;

export const invoiceSchema = z.object({
  accountId: idSchema.optional(),
  fileName: z.string().max(300).optional(),
  status: z.enum(INVOICE_STATUSES).default('queued'),
  invoiceNumber: z.string().max(100).optional(),
  invoiceStartDate: isoDate.optional(),
  invoiceEndDate: isoDate.optional(),
  values: z.record(z.string(), z.unknown()).default({}),
  batchId: z.string().optional(),
  isCreditNote: z.boolean().default(false),
  completed: z.boolean().default(false),
  invoiceValidationId: idSchema.optional(),
  sisterId: idSchema.optional(),
});
