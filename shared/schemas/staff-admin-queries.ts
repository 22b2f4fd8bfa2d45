import * as z from 'zod/mini';
import { idField, isoDateField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * The query strings of the staff admin's and kiosks' reads, in zod's small build and built on the first
 * call that parses one: the function declaring their routes reads this module at start, the bodies'
 * schemas (`staff-admin.ts`) load with the staff tools' operations.
 */

/** A company's id, or 'unmatched' for what reached no company. */
const companyOrUnmatched = () => z.union([idField(), z.literal('unmatched')]);
const optionalWord = (max: number) =>
  z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(max)));
const limit = () => z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50);

/** GET /util/activity: the activity log across companies, newest first. */
export const activityQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z
    .strictObject({
      companyId: z.optional(idField()),
      type: optionalWord(50),
      model: optionalWord(50),
      userSub: optionalWord(200),
      from: z.optional(isoDateField()),
      to: z.optional(isoDateField()),
      limit: limit(),
    })
    .check(
      z.refine((q) => !q.from || !q.to || q.from <= q.to, {
        path: ['to'],
        message: 'Must not be before from',
      }),
    ),
);

/** GET /util/emails: every company's e-mails (or those that reached no company), newest first. */
export const staffEmailsQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    companyId: z.optional(companyOrUnmatched()),
    status: optionalWord(50),
    limit: limit(),
  }),
);

/** GET /util/emails/{id}/attachments/{attachmentId}/download: whose e-mail ('unmatched': no company's). */
export const emailDownloadQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ companyId: companyOrUnmatched() }),
);

/** GET /util/asset-finder/{id}: the company holding the site. */
export const siteQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ companyId: idField() }));

/** GET /util/live-connections */
export const liveConnectionsQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ companyId: z.optional(idField()) }),
);

/** GET /util/asset-finder: sites of every company whose name or postcode holds the text. */
export const assetFinderQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    q: z.string().check(z.trim(), z.minLength(2, 'Type at least two characters'), z.maxLength(100)),
  }),
);

/** GET /kiosks/optisigns/screens */
export const screensQuerySchema = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ kioskId: z.optional(idField()) }),
);
