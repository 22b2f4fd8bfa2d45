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
  activityQuerySchema,
  assetFinderQuerySchema,
  emailDownloadQuery,
  liveConnectionsQuerySchema,
  screensQuerySchema,
  siteQuery,
  staffEmailsQuerySchema,
} from './staff-admin-queries.ts';
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
// build none). The queries the staff routes declare are in `staff-admin-queries.ts`, of zod's small build,
// so the function declaring the routes starts without this module.
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
