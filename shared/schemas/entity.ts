import * as z from 'zod';
import { addressSchema } from './address.ts';
import { idSchema, nonEmpty } from './common.ts';

export const entitySchema = z.object({
  legalName: nonEmpty.max(200),
  parentEntityId: idSchema.nullable().optional(),
  companyNumber: z.string().trim().max(20).optional(),
  address: addressSchema.optional(),
});
