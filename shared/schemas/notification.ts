import * as z from 'zod';
import { nonEmpty } from './common.ts';

export const notificationSchema = z.object({
  userSub: z.string(),
  content: nonEmpty.max(1000),
  route: z.string().max(500).optional(),
  icon: z.string().max(50).optional(),
  isSeen: z.boolean().default(false),
});
