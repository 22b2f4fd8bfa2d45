import * as z from 'zod';

/**
 * A postal address of a site or an entity. A module of its own, not in `common.ts`: functions that load
 * the common schemas at start (ids, dates) need not build it until a site or entity is parsed.
 */
export const addressSchema = z.object({
  streetAddress: z.string().trim().max(200).optional(),
  locality: z.string().trim().max(100).optional(),
  region: z.string().trim().max(100).optional(),
  postCode: z.string().trim().max(20).optional(),
  country: z.string().trim().max(100).optional(),
});
