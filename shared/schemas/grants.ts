import * as z from 'zod/mini';
import { ID_MESSAGE, ID_PATTERN } from './mini-fields.ts';

/**
 * A member's grants on single entities, sites and accounts (01 §6). Apart from the company schemas because
 * every function reads them for each caller, and should not build every company resource's schema to do so;
 * built with zod's small build (`zod/mini`), which costs a cold start far less than the full one.
 */
const grantId = z.string().check(z.regex(ID_PATTERN, ID_MESSAGE));
const grantList = z.object({
  read: z._default(z.array(grantId), []),
  write: z._default(z.array(grantId), []),
});

export const grantsSchema = z.object({
  entities: z._default(grantList, { read: [], write: [] }),
  assets: z._default(grantList, { read: [], write: [] }),
  accounts: z._default(grantList, { read: [], write: [] }),
});
export type Grants = z.infer<typeof grantsSchema>;
