import * as z from 'zod';
import { PERMISSION_NAMES } from '../access/permission-names.ts';
import { INVOICE_FILE_NAME_LIMIT } from '../files/invoice-file-name.ts';
import { idSchema, nonEmpty } from './common.ts';
import { grantsSchema } from './grants.ts';

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

export const roleSchema = z.object({
  name: nonEmpty.max(100),
  permissions: z.array(z.enum(PERMISSION_NAMES)).default([]),
});

export const permissionSchema = z.object({
  name: nonEmpty.max(100),
  userSub: z.string().optional(),
  grants: grantsSchema,
});

export const userSchema = z.object({
  email: z.string().trim().email('Must be a valid e-mail address'),
  name: nonEmpty.max(200),
  roleId: idSchema.optional(),
  permissions: z.array(z.enum(PERMISSION_NAMES)).default([]),
  grants: grantsSchema.default({
    entities: { read: [], write: [] },
    assets: { read: [], write: [] },
    accounts: { read: [], write: [] },
  }),
});

export const notificationSchema = z.object({
  userSub: z.string(),
  content: nonEmpty.max(1000),
  route: z.string().max(500).optional(),
  icon: z.string().max(50).optional(),
  isSeen: z.boolean().default(false),
});

export const settingSchema = z.object({
  key: nonEmpty.max(100),
  value: z.unknown(),
});

export const logSchema = z.object({
  type: z.string().max(50),
  modelId: z.string().optional(),
  model: z.string().optional(),
  userSub: z.string().optional(),
  message: z.string().max(2000).optional(),
  batchId: z.string().optional(),
});

export const emailSchema = z.object({
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string().optional(),
  status: z.enum(['accepted', 'refused']).default('accepted'),
  reason: z.string().optional(),
  attachments: z.array(z.object({ _id: z.string(), fileName: z.string(), key: z.string() })).default([]),
});

export const messageSchema = z.object({
  subject: nonEmpty.max(200),
  body: z.string().max(10_000).optional(),
  category: z.string().max(100).optional(),
  assetId: idSchema.optional(),
  accountIds: z.array(idSchema).default([]),
  assignedUserSub: z.string().optional(),
  invoiceId: idSchema.optional(),
  status: z.enum(['open', 'resolved']).default('open'),
  authorSub: z.string().optional(),
  mentions: z.array(z.string()).default([]),
});

export const kioskSchema = z.object({
  name: nonEmpty.max(200),
  assetId: idSchema,
  slides: z.array(z.enum(['leaderboard', 'consumption', 'news', 'energy-usage', 'carbon'])).default([]),
});

export const idListSchema = z.object({ _id: idSchema });

export const replySchema = z.object({
  body: nonEmpty.max(10_000),
});
