import * as z from 'zod';
import { idSchema, isoDate, nonEmpty } from './common.ts';

export const CONTRACT_RATE_KINDS = ['unit', 'standing', 'capacity', 'other'] as const;

/** A rate of a supply contract (a day unit rate, a standing charge): bills are checked against these. */
export const contractRateTypeSchema = z.object({
  name: nonEmpty.max(100),
  kind: z.enum(CONTRACT_RATE_KINDS).default('unit'),
  rate: z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more'),
  unit: nonEmpty.max(30),
});

/** A supply contract of an account (the account's `contracts`); its PDF is attached by the server. */
export const contractSchema = z.object({
  name: nonEmpty.max(200),
  reference: z.string().trim().max(100).optional(),
  supplierId: idSchema.optional(),
  startDate: isoDate,
  endDate: isoDate,
  status: z.enum(['active', 'inactive']).default('active'),
  isRenewable: z.boolean().default(false),
  /** Renewable supply backed by REGOs retired for it: counts 0 kg market-based. */
  regoBacked: z.boolean().default(false),
  notes: z.string().trim().max(2000).optional(),
  rateTypes: z.array(contractRateTypeSchema).max(50).default([]),
});
