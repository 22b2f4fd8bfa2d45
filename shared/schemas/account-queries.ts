import * as z from 'zod/mini';
import { isoDateField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** Query strings of an account's own calls, in zod's small build: the accounts function declares them at start. */

export const CONSUMPTION_GRANULARITIES = ['monthly', 'yearly'] as const;
export type ConsumptionGranularity = (typeof CONSUMPTION_GRANULARITIES)[number];

/** GET /accounts/{id}/consumption and /consumption-old. */
export const consumptionQuerySchema = onFirstUse(() =>
  z.object({
    startDate: z.optional(isoDateField()),
    endDate: z.optional(isoDateField()),
    granularity: z._default(
      z.enum(CONSUMPTION_GRANULARITIES, { error: 'Must be monthly or yearly' }),
      'monthly',
    ),
  }),
);
