import * as z from 'zod/mini';
import { idField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/*
 * The regulatory calendar's query strings, in zod's small build and built on the first call that parses
 * one: the function declaring the calendar's routes reads this module at start, the targets' schemas
 * (`targets.ts`) load with the targets' operations.
 */

const SCENARIOS = ['in-force', 'proposed'] as const;

/** GET /calendar/events: the next months of the caller's sites, or one site's whole timeline. */
export const calendarEventsQuery = onFirstUse(() =>
  z.object({
    assetId: z.optional(idField()),
    months: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(60)), 24),
    /** Absent: the company's saved scenario. */
    scenario: z.optional(z.enum(SCENARIOS)),
    /** all: every event of the site, past ones too (the site's timeline). */
    window: z._default(z.enum(['upcoming', 'all']), 'upcoming'),
  }),
);

/** GET /calendar/feed.ics: the token is the credential itself, read by the authentication. */
export const calendarFeedQuery = onFirstUse(() =>
  z.object({
    token: z.string().check(z.maxLength(200)),
    /** Absent: the company's saved scenario. */
    scenario: z.optional(z.enum(SCENARIOS)),
  }),
);
