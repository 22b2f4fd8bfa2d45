import * as z from 'zod';
import { builtOnce } from './built-once.ts';
import { idField, isoDateField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

export const CONTRACT_RATE_KINDS = ['unit', 'standing', 'capacity', 'other'] as const;

/** Text that must not be empty once trimmed. */
export const requiredText = () => z.string().trim().min(1, 'This field is required');

/** A rate of a supply contract (a day unit rate, a standing charge): bills are checked against these. */
export const contractRateTypeObject = builtOnce(() =>
  z.object({
    name: requiredText().max(100),
    kind: z.enum(CONTRACT_RATE_KINDS).default('unit'),
    rate: z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more'),
    unit: requiredText().max(30),
  }),
);
export const contractRateTypeSchema = onFirstUse(contractRateTypeObject);

/** A supply contract of an account (the account's `contracts`); its PDF is attached by the server. */
export const contractObject = builtOnce(() =>
  z.object({
    name: requiredText().max(200),
    reference: z.string().trim().max(100).optional(),
    supplierId: idField().optional(),
    startDate: isoDateField(),
    endDate: isoDateField(),
    status: z.enum(['active', 'inactive']).default('active'),
    isRenewable: z.boolean().default(false),
    /** Renewable supply backed by REGOs retired for it: counts 0 kg market-based. */
    regoBacked: z.boolean().default(false),
    notes: z.string().trim().max(2000).optional(),
    rateTypes: z.array(contractRateTypeObject()).max(50).default([]),
  }),
);
export const contractSchema = onFirstUse(contractObject);
