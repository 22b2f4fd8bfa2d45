import * as z from 'zod/mini';
import { idField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * The query strings of the staff utilities' reads, in zod's small build and built on the first call that
 * parses one: the function declaring their routes reads this module at start, the bodies' schemas
 * (`util-staff.ts`) load with the staff tools' operations.
 */

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const MONTH_MESSAGE = 'Must be a month as YYYY-MM';

const month = () => z.string().check(z.regex(MONTH_PATTERN, MONTH_MESSAGE));

/** GET /util/gridfetch-usage: a range of months (both ends included) and, optionally, one company. */
export const gridfetchUsageQuerySchema = onFirstUse(() =>
  z
    .object({
      from: z.optional(month()),
      to: z.optional(month()),
      companyId: z.optional(idField()),
    })
    .check(
      z.refine((q) => !q.from || !q.to || q.from <= q.to, {
        path: ['to'],
        message: 'Must not be before from',
      }),
    ),
);

/** At most this many gas meters are offered at once: far more than a company's estate holds. */
export const GAS_METER_CHOICES_LIMIT = 1000;

/**
 * GET /util/gas-prediction-accounts: the gas meters the tool may predict, of one company (by default the
 * caller's), sorted by site and name; at most GAS_METER_CHOICES_LIMIT of them, `total` says how many there are.
 */
export const gasMeterChoicesQuerySchema = onFirstUse(() => z.object({ companyId: z.optional(idField()) }));
