import * as z from 'zod';
import { idSchema } from './common.ts';

/**
 * A member's grants on single entities, sites and accounts (01 §6). Apart from the company schemas because
 * every function reads them for each caller, and should not build every company resource's schema to do so.
 */
const grantList = z.object({ read: z.array(idSchema).default([]), write: z.array(idSchema).default([]) });

export const grantsSchema = z.object({
  entities: grantList.default({ read: [], write: [] }),
  assets: grantList.default({ read: [], write: [] }),
  accounts: grantList.default({ read: [], write: [] }),
});
export type Grants = z.infer<typeof grantsSchema>;
