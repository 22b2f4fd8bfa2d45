import * as z from 'zod';
import { isoDate, nonEmpty } from './common.ts';

export const timelineEventSchema = z.object({
  title: nonEmpty.max(200),
  date: isoDate,
  description: z.string().max(2000).optional(),
});
