import * as z from 'zod';
import { idSchema, utilityTypeSchema } from './common.ts';

/** Who uses a meter's supply: the landlord (base building, common parts), a tenant, or both (whole building). */
export const METER_USERS = ['landlord', 'tenant', 'shared'] as const;
export type MeterUser = (typeof METER_USERS)[number];

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
  /** Who uses the supply (null: not set); analytics split figures by it. */
  meterUser: z
    .enum(METER_USERS, { error: `Must be one of ${METER_USERS.join(', ')}` })
    .nullable()
    .optional(),
  /** The site's tenant who uses it, when meterUser is tenant (a tenant of the meter's own site). */
  meterUserTenantId: idSchema.nullable().optional(),
});
