import * as z from 'zod';
import { isoDate, nonEmpty } from './common.ts';

/**
 * An occupier of (part of) a site, with the lease that lets it. Kept a plain object (no cross-field
 * refinement) because the generic update checks a patch against its partial form.
 */
export const tenantSchema = z.object({
  name: nonEmpty.max(200),
  unit: z.string().trim().max(100).optional(),
  leaseStart: isoDate.optional(),
  leaseEnd: isoDate.optional(),
  /** The first date either party may end the lease early, where the lease gives a break option. */
  leaseBreak: isoDate.optional(),
  floorArea: z.number().positive('Must be greater than 0').optional(),
  contactEmail: z.string().trim().email('Must be a valid e-mail address').optional(),
});
