import * as z from 'zod';
import { nonEmpty } from './common.ts';

export const countrySchema = z.object({
  name: nonEmpty.max(100),
  fullName: nonEmpty.max(200),
  code: z.string().length(2),
  isJurisdiction: z.boolean().default(false),
});
