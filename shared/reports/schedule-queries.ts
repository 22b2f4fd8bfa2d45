import * as z from 'zod/mini';
import { idField } from '../schemas/mini-fields.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';
import { REPORT_SCOPES } from './report-templates.ts';

/*
 * The query strings of the schedule calls, in zod's small build (`zod/mini`): the functions declaring these
 * routes read them at start, the schedules' own schemas (report-schedule.ts) only on a write.
 */

/** The unsubscribe link's query: its token is all the credential there is. */
export const unsubscribeQuery = onFirstUse(() =>
  z.object({ token: z._default(z.string().check(z.maxLength(200)), '') }),
);

/** GET /scheduled-reports/recipients: the scope whose readers may be picked as recipients. */
export const recipientChoicesQuery = onFirstUse(() =>
  z.object({
    scopeType: z._default(z.enum(REPORT_SCOPES), 'company'),
    scopeId: z.optional(idField()),
  }),
);
