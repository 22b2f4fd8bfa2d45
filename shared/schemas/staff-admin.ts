import * as z from 'zod';
import { idField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';
import {
  ADMIN_MESSAGES,
  CAPTURE_FILE_MB_CEILING,
  FEATURE_FLAGS,
  type FeatureFlag,
} from './staff-admin-values.ts';

export {
  ADMIN_MESSAGES,
  CAPTURE_FILE_MB_CEILING,
  DEFAULT_PRODUCT_SETTINGS,
  EMAIL_CAPTURE_OFF,
  FEATURE_FLAGS,
  type FeatureFlag,
  featureOffMessage,
  type StoredProductSettings,
} from './staff-admin-values.ts';

/** The staff admin pages (/admin, /admin/settings, /admin/log, /admin/emails, /admin/tools/*) and kiosk pairing. */

// The schemas are built on the first call that parses one (the pages importing this module's names
// build none): the function declaring the staff routes starts without them.
const feedUrl = () =>
  z
    .string()
    .trim()
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/, ADMIN_MESSAGES.feedPlaceholders)
    .optional();

const FLAG_NAMES = Object.keys(FEATURE_FLAGS) as [FeatureFlag, ...FeatureFlag[]];

/** Product-wide settings, kept by staff: they apply to every company. */
export const productSettingsSchema = /* @__PURE__ */ onFirstUse(() =>
  z
    .object({
      defaultFactorSet: z.string().trim().max(100).optional(),
      captureLimits: z
        .object({
          maxFileMb: z
            .number()
            .int()
            .min(1)
            .max(CAPTURE_FILE_MB_CEILING, `Must be at most ${CAPTURE_FILE_MB_CEILING} MB`),
          maxPagesPerBill: z.number().int().min(1).max(500),
          maxBillsPerDay: z.number().int().min(1).max(100_000),
        })
        .strict(),
      featureFlags: z.partialRecord(
        z.enum(FLAG_NAMES, { error: `Must be one of ${FLAG_NAMES.join(', ')}` }),
        z.boolean(),
      ),
      kioskFeeds: z.object({ newsUrl: feedUrl(), weatherUrl: feedUrl(), travelUrl: feedUrl() }).strict(),
    })
    .strict(),
);
export type ProductSettings = z.infer<typeof productSettingsSchema>;

const isoDay = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date as YYYY-MM-DD');
/** A company's id, or 'unmatched' for what reached no company. */
const companyOrUnmatched = () => z.union([idField(), z.literal('unmatched')]);

/** GET /util/activity: the activity log across companies, newest first. */
export const activityQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z
    .object({
      companyId: idField().optional(),
      type: z.string().trim().min(1).max(50).optional(),
      model: z.string().trim().min(1).max(50).optional(),
      userSub: z.string().trim().min(1).max(200).optional(),
      from: isoDay().optional(),
      to: isoDay().optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    })
    .strict()
    .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'Must not be before from' }),
);

/** GET /util/emails: every company's e-mails (or those that reached no company), newest first. */
export const staffEmailsQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z
    .object({
      companyId: companyOrUnmatched().optional(),
      status: z.string().trim().min(1).max(50).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    })
    .strict(),
);

/** GET /util/emails/{id}/attachments/{attachmentId}/download: whose e-mail ('unmatched': no company's). */
export const emailDownloadQuery = /* @__PURE__ */ onFirstUse(() =>
  z.object({ companyId: companyOrUnmatched() }).strict(),
);

/** GET /util/asset-finder/{id}: the company holding the site. */
export const siteQuery = /* @__PURE__ */ onFirstUse(() => z.object({ companyId: idField() }).strict());

/** GET /util/live-connections */
export const liveConnectionsQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ companyId: idField().optional() }).strict(),
);

/** POST /util/live-connections/broadcast */
export const broadcastSchema = /* @__PURE__ */ onFirstUse(() =>
  z
    .object({
      companyId: idField(),
      userSub: z.string().trim().min(1).max(200).optional(),
      message: z.string().trim().min(1, 'This field is required').max(500),
    })
    .strict(),
);

/** GET /util/asset-finder: sites of every company whose name or postcode holds the text. */
export const assetFinderQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ q: z.string().trim().min(2, 'Type at least two characters').max(100) }).strict(),
);

/** GET /kiosks/optisigns/screens */
export const screensQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ kioskId: idField().optional() }).strict(),
);

/** POST /kiosks/optisigns/screens: pair a signage screen showing its code with a kiosk. */
export const pairScreenSchema = /* @__PURE__ */ onFirstUse(() =>
  z
    .object({
      kioskId: idField(),
      pairingCode: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9]{4,12}$/, 'The code the screen shows: 4 to 12 letters and digits'),
    })
    .strict(),
);

export interface QueueDepth {
  queue: string;
  visible: number | null;
  inFlight: number | null;
  deadLetters: number | null;
}

export interface AdminOverview {
  generatedAt: string;
  month: string;
  totals: {
    companies: number;
    users: number;
    sites: number;
    meters: number;
    billsThisMonth: number;
    validationFailures: number;
  };
  queues: QueueDepth[];
  lastErrors: { at: string; companyId: string; companyName: string; message: string; model?: string }[];
}
