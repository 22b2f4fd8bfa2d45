import * as z from 'zod';
import { ACCOUNT_MESSAGES, ACCOUNT_STATUSES } from './account-rules.ts';
import { builtOnce } from './built-once.ts';
import { idField, isoDateField, utilityTypeField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** POST /accounts/from-wizard: the account wizard's fields; the server checks links and meter numbers. */
export const accountWizardSchema = onFirstUse(() =>
  z.object({
    assetId: idField(),
    type: utilityTypeField(),
    name: z.string().trim().max(200).optional(),
    meterPointNumber: z.string().trim().max(40).optional(),
    /** The serial printed on the meter, by which a data provider knows a smart meter. */
    meterSerialNumber: z.string().trim().max(40).optional(),
    supplierId: idField().optional(),
    parentAccountId: idField().nullable().optional(),
    unit: z.string().trim().max(20).optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(50).default([]),
    wasteCategory: z.string().trim().max(100).optional(),
    status: z.enum(ACCOUNT_STATUSES, { error: ACCOUNT_MESSAGES.statusValue }).default('active'),
  }),
);
export type AccountWizardInput = z.input<typeof accountWizardSchema>;

/** An entry of an account's status history: the account's status follows its latest entry. */
export const accountStatusHistoryObject = builtOnce(() =>
  z.object({
    status: z.enum(ACCOUNT_STATUSES, { error: ACCOUNT_MESSAGES.statusValue }),
    date: isoDateField(),
    comment: z.string().trim().max(1000).optional(),
  }),
);
