import * as z from 'zod';
import { isoDate, nonEmpty } from './common.ts';

export const statusHistorySchema = z.object({
  status: nonEmpty.max(50),
  date: isoDate,
  comment: z.string().max(1000).optional(),
});
