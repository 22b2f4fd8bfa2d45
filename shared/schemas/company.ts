import * as z from 'zod';
import { INVOICE_FILE_NAME_LIMIT } from '../files/invoice-file-name.ts';
import { nonEmpty } from './common.ts';

export type { Grants } from './grants.ts';

export const CALENDAR_PERIODS = ['Standard', '13 Week Periods UK Financial Year', 'Rail Calendar'] as const;

export { INVOICE_FILE_NAME_LIMIT };
export const invoiceFileNameLimitSchema = z
  .number({ error: 'Must be a number' })
  .refine(Number.isInteger, 'Must be a whole number')
  .min(INVOICE_FILE_NAME_LIMIT.min, `Must be at least ${INVOICE_FILE_NAME_LIMIT.min}`)
  .max(INVOICE_FILE_NAME_LIMIT.max, `Must be at most ${INVOICE_FILE_NAME_LIMIT.max}`);

/** A company's accepted senders of invoice e-mail: whole addresses, or `@domain` for a whole domain. */
export const captureSendersSchema = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .regex(/^([^@\s]+@|@)[^@\s]+\.[^@\s]+$/, 'Must be an e-mail address or @domain'),
  )
  .max(500);

export const companySettingsSchema = z.object({
  isDemo: z.boolean().default(false),
  showLogo: z.boolean().default(false),
  logoUrl: z.string().optional(),
  calendarPeriod: z.enum(CALENDAR_PERIODS).default('Standard'),
  /** Which MEES dates the regulatory calendar and its feed show unless a page asks for the other. */
  meesScenario: z.enum(['in-force', 'proposed']).default('proposed'),
  hideCostData: z.boolean().default(false),
  invoiceCategories: z.array(z.string().max(100)).default([]),
  miscInvoiceCategories: z.array(z.string().max(100)).default([]),
  messageCategories: z.array(z.string().max(100)).default([]),
  documentCategories: z.array(z.string().max(100)).default([]),
  invoiceCaptureEmail: z.string().email().optional(),
  /** When on, mail to the capture address is taken only from the senders listed below. */
  invoiceCaptureSendersOnly: z.boolean().default(false),
  /** Accepted senders: whole addresses, or `@domain` for any address of a domain. */
  invoiceCaptureSenders: captureSendersSchema.default([]),
  invoiceFileNameLimit: invoiceFileNameLimitSchema.default(INVOICE_FILE_NAME_LIMIT.default),
  supplierPortals: z.record(z.string(), z.object({ username: z.string(), enabled: z.boolean() })).default({}),
});

export const companySchema = z.object({
  name: nonEmpty.max(200),
  settings: companySettingsSchema.default(companySettingsSchema.parse({})),
});
