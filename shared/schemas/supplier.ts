import * as z from 'zod';
import { nonEmpty, utilityTypeSchema } from './common.ts';

export const supplierSchema = z.object({
  name: nonEmpty.max(200),
  type: z.enum(['supplier', 'distributor']).default('supplier'),
  utilityTypes: z.array(utilityTypeSchema).default([]),
  logoUrl: z.string().optional(),
  portal: z.string().max(500).optional(),
  scraperEnabled: z.boolean().default(false),
});
