import * as z from 'zod';
import {
  CALENDAR_PERIODS,
  captureSendersSchema,
  companySchema,
  invoiceFileNameLimitSchema,
} from '../../shared/schemas/company.ts';
import { ruleChangesSchema } from '../../shared/validation/rules.ts';

/*
 * What the company's writes take, in zod's full build. The service loads this module on the first write that
 * parses one, not when the function starts: most of its calls read the company, its users and roles.
 */

const settings = z
  .object({
    calendarPeriod: z.enum(CALENDAR_PERIODS),
    meesScenario: z.enum(['in-force', 'proposed']),
    hideCostData: z.boolean(),
    showLogo: z.boolean(),
    invoiceCategories: z.array(z.string().trim().min(1).max(100)).max(200),
    miscInvoiceCategories: z.array(z.string().trim().min(1).max(100)).max(200),
    messageCategories: z.array(z.string().trim().min(1).max(100)).max(200),
    documentCategories: z.array(z.string().trim().min(1).max(100)).max(200),
    invoiceCaptureEmail: z.string().trim().toLowerCase().email('Must be a valid e-mail address').nullable(),
    invoiceCaptureSendersOnly: z.boolean(),
    invoiceCaptureSenders: captureSendersSchema,
    // Null goes back to the default.
    invoiceFileNameLimit: invoiceFileNameLimitSchema.nullable(),
    isDemo: z.boolean(),
  })
  .partial()
  .strict();

export const companyAdminBodies = {
  create: companySchema.extend({
    owner: z
      .object({
        email: z.string().trim().email('Must be a valid e-mail address'),
        name: z.string().trim().min(1),
      })
      .optional(),
  }),
  settings,
  update: z
    .object({ name: z.string().trim().min(1).max(200), settings })
    .partial()
    .strict(),
  portal: z
    .object({
      username: z.string().trim().min(1, 'This field is required').max(200),
      enabled: z.boolean().default(true),
      // Sealed and kept apart from the settings: never stored with them, answered or logged.
      password: z.string().min(1, 'This field is required').max(500).optional(),
    })
    .strict(),
  rules: z.object({ rules: ruleChangesSchema }),
};

export type SettingsChanges = z.output<typeof settings>;
