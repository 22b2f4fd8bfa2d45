import * as z from 'zod';
import { idSchema, utilityTypeSchema } from './common.ts';

export const accountSchema = z.object({
  name: z.string().trim().max(200).optional(),
  type: utilityTypeSchema,
  meterPointNumber: z.string().trim().max(40).optional(),
  /** The meter's own serial, which half-hourly meter data connectors match meters by. */
  meterSerialNumber: z.string().trim().max(40).optional(),
  assetId: idSchema,
  entityId: idSchema.optional(),
  supplierId: idSchema.optional(),
  parentAccountId: idSchema.nullable().optional(),
  status: z.enum(['active', 'inactive']).default('active'),
  unit: z.string().max(20).optional(),
  tags: z.array(z.string().max(50)).default([]),
  wasteCategory: z.string().max(100).optional(),
});
