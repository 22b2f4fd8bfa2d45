import * as z from 'zod';
import { idSchema, isoDate } from './common.ts';

/** A meter reading of an account. Its photo is attached only through the submit calls, which check it. */
export const readingSchema = z.object({
  accountId: idSchema,
  date: isoDate,
  value: z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more'),
  unit: z.string().max(20).optional(),
  isEstimate: z.boolean().default(false),
  comment: z.string().trim().max(1000).optional(),
});
