import * as z from 'zod';
import { idSchema, isoDate, nonEmpty, utilityTypeSchema } from './common.ts';

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

export const VALIDATION_STATUSES = ['pending', 'passed', 'warning', 'failed', 'error'] as const;

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

export const invoiceValidationSchema = z.object({
  status: z.enum(VALIDATION_STATUSES).default('pending'),
  invoiceId: idSchema.optional(),
  assignedUserId: z.string().optional(),
  supplierId: idSchema.optional(),
  tags: z.array(z.string().max(50)).default([]),
  hold: z.boolean().default(false),
  completed: z.boolean().default(false),
});

export const templateSchema = z.object({
  supplierId: idSchema,
  type: utilityTypeSchema,
  supplierRules: z.array(z.record(z.string(), z.unknown())).default([]),
  versionRules: z.array(z.record(z.string(), z.unknown())).default([]),
  pages: z.array(z.record(z.string(), z.unknown())).default([]),
  bounds: z.array(z.record(z.string(), z.unknown())).default([]),
  status: z.enum(['preupload', 'uploaded', 'ready']).default('preupload'),
});

export const contractSchema = z.object({
  name: nonEmpty.max(200),
  supplierId: idSchema.optional(),
  startDate: isoDate,
  endDate: isoDate,
  status: z.enum(['active', 'inactive']).default('active'),
  rateTypes: z.array(z.object({ name: z.string(), rate: z.number(), unit: z.string() })).default([]),
});

export const scraperRunSchema = z.object({
  supplierId: idSchema,
  accountId: idSchema.optional(),
  status: z.enum(['pending', 'running', 'succeeded', 'failed']).default('pending'),
});

export const importSchema = z.object({
  type: z.enum(['assets', 'accounts', 'entities', 'invoices', 'consumption', 'contracts']),
  importTemplateId: idSchema.optional(),
  status: z.enum(['pending', 'mapping', 'preview', 'importing', 'completed', 'error']).default('pending'),
  fileKey: z.string().optional(),
  mapping: z.record(z.string(), z.string()).default({}),
  batchId: z.string().optional(),
});

export const importTemplateSchema = z.object({
  name: nonEmpty.max(200),
  type: z.string().max(50),
  columns: z.array(z.string()).default([]),
});
