import * as z from 'zod';
import { builtOnce } from './built-once.ts';
import { idField, isoDateField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** A meter reading of an account. Its photo is attached only through the submit calls, which check it. */
export const readingObject = builtOnce(() =>
  z.object({
    accountId: idField(),
    date: isoDateField(),
    value: z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more'),
    unit: z.string().max(20).optional(),
    isEstimate: z.boolean().default(false),
    comment: z.string().trim().max(1000).optional(),
  }),
);
export const readingSchema = onFirstUse(readingObject);
