import * as z from 'zod';
import { idSchema, isoDate, nonEmpty } from './common.ts';

export const projectSchema = z.object({
  name: nonEmpty.max(200),
  assetId: idSchema,
  description: z.string().max(5000).optional(),
  status: z.enum(['planned', 'in-progress', 'completed', 'cancelled']).default('planned'),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  cost: z.number().nonnegative().optional(),
  estimatedSavingKwh: z.number().optional(),
  recommendationId: idSchema.optional(),
});

export const taskSchema = z.object({
  title: nonEmpty.max(200),
  done: z.boolean().default(false),
  dueDate: isoDate.optional(),
  assignedUserSub: z.string().optional(),
});
