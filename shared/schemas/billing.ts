import * as z from 'zod';
import { idSchema, isoDate, nonEmpty } from './common.ts';
import { templateSchema as templateItemSchema } from './templates.ts';

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

/** A supplier invoice template, in full in ./templates.ts with the checks between its lists. */
export const templateSchema = templateItemSchema;

export const CONTRACT_RATE_KINDS = ['unit', 'standing', 'capacity', 'other'] as const;

/** A rate of a supply contract (a day unit rate, a standing charge): bills are checked against these. */
export const contractRateTypeSchema = z.object({
  name: nonEmpty.max(100),
  kind: z.enum(CONTRACT_RATE_KINDS).default('unit'),
  rate: z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more'),
  unit: nonEmpty.max(30),
});

/** A supply contract of an account (the account's `contracts`); its PDF is attached by the server. */
export const contractSchema = z.object({
  name: nonEmpty.max(200),
  reference: z.string().trim().max(100).optional(),
  supplierId: idSchema.optional(),
  startDate: isoDate,
  endDate: isoDate,
  status: z.enum(['active', 'inactive']).default('active'),
  isRenewable: z.boolean().default(false),
  /** Renewable supply backed by REGOs retired for it: counts 0 kg market-based. */
  regoBacked: z.boolean().default(false),
  notes: z.string().trim().max(2000).optional(),
  rateTypes: z.array(contractRateTypeSchema).max(50).default([]),
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
