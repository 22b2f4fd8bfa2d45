import * as z from 'zod';
import { nonEmpty } from './common.ts';

export const importTemplateSchema = z.object({
  name: nonEmpty.max(200),
  type: z.string().max(50),
  columns: z.array(z.string()).default([]),
});
