import * as z from 'zod';
import { builtOnce } from './built-once.ts';
import { idField, utilityTypeField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** Who uses a meter's supply: the landlord (base building, common parts), a tenant, or both (whole building). */
export const METER_USERS = ['landlord', 'tenant', 'shared'] as const;
export type MeterUser = (typeof METER_USERS)[number];

/** An account as written: built on first use, as the object (for its partial form) or as a schema to parse. */
export const accountObject = builtOnce(() =>
  z.object({
    name: z.string().trim().max(200).optional(),
    type: utilityTypeField(),
    meterPointNumber: z.string().trim().max(40).optional(),
    /** The meter's own serial, which half-hourly meter data connectors match meters by. */
    meterSerialNumber: z.string().trim().max(40).optional(),
    assetId: idField(),
    entityId: idField().optional(),
    supplierId: idField().optional(),
    parentAccountId: idField().nullable().optional(),
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
    meterUserTenantId: idField().nullable().optional(),
  }),
);
export const accountSchema = onFirstUse(accountObject);
