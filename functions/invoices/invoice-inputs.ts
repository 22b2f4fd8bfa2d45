import * as z from 'zod';
import { RATE_KINDS } from '../../shared/capture/model.ts';
import { CAPTURE_CONTENT_TYPES } from '../../shared/files/file-type.ts';
import { idField } from '../../shared/schemas/fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { MAX_CAPTURE_BYTES } from './invoice-records.ts';

/**
 * The bodies of the invoice and validation writes, in zod's full build. The services load this module
 * with the first write that parses a body, so that a cold start serving reads does not read that build.
 */

const ACCEPTED_TYPES = Object.values(CAPTURE_CONTENT_TYPES);
const ID = /^[0-9a-f]{24}$/;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** Invoices or validations one bulk call may name. */
const MAX_BULK = 100;

/** An invoice's values as a person types them: null clears one. */
const invoiceValues = () => z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

const uploadRequestObject = () =>
  z.object({
    fileName: z.string().trim().min(1, 'Choose a file').max(200, 'The file name is too long'),
    contentType: z
      .string()
      .refine(
        (t) => ACCEPTED_TYPES.includes(t),
        'Only PDF documents and PNG, JPEG or TIFF images can be captured',
      ),
    size: z
      .number({ error: 'The size of the file is required' })
      .int()
      .positive('The file is empty')
      .max(MAX_CAPTURE_BYTES, 'The file is larger than 20 MB'),
    batchId: z.string().regex(ID, 'Must be a valid id').optional(),
    accountId: z.string().regex(ID, 'Must be a valid id').optional(),
  });
/** POST /invoices/upload: asks for a presigned PUT for a document to capture. */
export const uploadRequestSchema = onFirstUse(uploadRequestObject);

/** POST /invoices/manual-upload: a document filed by hand on an account, with the values a person typed. */
export const manualUploadSchema = onFirstUse(() =>
  uploadRequestObject().extend({
    accountId: z.string({ error: 'Choose an account' }).regex(ID, 'Choose an account'),
    values: invoiceValues().default({}),
    /** The key the first call answered, once the document is there: the second call files the invoice. */
    key: z.string().max(400).optional(),
  }),
);

/** What a person may change on an invoice: its values and the account it belongs to. */
export const invoiceEditSchema = onFirstUse(() =>
  z.object({
    values: invoiceValues().default({}),
    accountId: z
      .string()
      .regex(/^[0-9a-f]{24}$/, 'Must be a valid id')
      .nullable()
      .optional(),
  }),
);

/** A charge line typed in by a person. */
export const rateInputSchema = onFirstUse(() =>
  z.object({
    description: z.string().trim().min(1, 'This field is required').max(200),
    kind: z.enum(RATE_KINDS).default('unit'),
    units: z.number({ error: 'Must be a number' }).finite().optional(),
    unit: z.string().trim().max(20).optional(),
    unitRate: z.number({ error: 'Must be a number' }).finite().optional(),
    amount: z.number({ error: 'Must be a number' }).finite().optional(),
    startDate: z.string().regex(isoDate, 'Must be a date as YYYY-MM-DD').optional(),
    endDate: z.string().regex(isoDate, 'Must be a date as YYYY-MM-DD').optional(),
  }),
);

/** PATCH /invoices/{id}/manual-update. */
export const manualUpdateSchema = onFirstUse(() =>
  z.object({
    values: invoiceValues(),
    accountId: z
      .string()
      .regex(/^[0-9a-f]{24}$/, 'Must be a valid id')
      .nullable()
      .optional(),
  }),
);

/** POST /invoices/{id}/update-validation. */
export const updateValidationSchema = onFirstUse(() =>
  z.object({
    tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    hold: z.boolean().optional(),
    assignedUserId: z.string().max(100).nullable().optional(),
    comment: z.string().trim().max(2000).optional(),
  }),
);

/** POST /invoices/convert-values. */
export const convertSchema = onFirstUse(() =>
  z.object({
    values: z
      .object({
        consumption: z.number({ error: 'Must be a number' }).finite(),
        consumptionUnit: z.string().trim().min(1, 'This field is required'),
      })
      .passthrough(),
    toUnit: z.string().trim().min(1, 'This field is required'),
  }),
);

/** POST /invoices/bulk-delete. */
export const bulkDeleteSchema = onFirstUse(() =>
  z.object({
    ids: z
      .array(idField())
      .min(1, 'Choose at least one invoice')
      .max(MAX_BULK, `At most ${MAX_BULK} at a time`),
    noScrapeIds: z.array(idField()).max(MAX_BULK).default([]),
  }),
);

/** POST /invoices/import-rollback. */
export const importRollbackSchema = onFirstUse(() =>
  z.object({ batchId: z.string().regex(/^[0-9a-f]{24}$/, 'Must be a valid id') }),
);

/** The validations a bulk action of the validation queue names. */
const idsObject = () =>
  z.object({
    ids: z
      .array(idField())
      .min(1, 'Choose at least one invoice')
      .max(MAX_BULK, `At most ${MAX_BULK} invoices at a time`),
  });
export const idsSchema = onFirstUse(idsObject);

/** POST /invoice-validation/bulk-hold. */
export const bulkHoldSchema = onFirstUse(() =>
  idsObject().extend({ hold: z.boolean({ error: 'hold must be true or false' }) }),
);

/** POST /invoice-validation/bulk-tag. */
export const bulkTagSchema = onFirstUse(() =>
  idsObject().extend({
    tags: z.array(z.string().trim().min(1).max(50)).min(1, 'Give at least one tag').max(20),
  }),
);

/** POST /invoice-validation/assign-users. */
export const assignUsersSchema = onFirstUse(() =>
  idsObject().extend({ userSub: z.string().trim().min(1, 'Choose a user').max(100).nullable() }),
);

/** The fields of PATCH /invoice-validation/{id}: what a person records; the result has actions of its own. */
export const validationEditSchema = onFirstUse(() =>
  z
    .object({
      tags: z.array(z.string().trim().min(1).max(50)).max(20),
      hold: z.boolean({ error: 'hold must be true or false' }),
      assignedUserId: z.string().trim().min(1).max(100).nullable(),
    })
    .partial(),
);
