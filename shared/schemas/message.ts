import * as z from 'zod';
import { idSchema, nonEmpty } from './common.ts';

export const messageSchema = z.object({
  subject: nonEmpty.max(200),
  body: z.string().max(10_000).optional(),
  category: z.string().max(100).optional(),
  assetId: idSchema.optional(),
  accountIds: z.array(idSchema).default([]),
  assignedUserSub: z.string().optional(),
  invoiceId: idSchema.optional(),
  status: z.enum(['open', 'resolved']).default('open'),
  authorSub: z.string().optional(),
  mentions: z.array(z.string()).default([]),
});

export const replySchema = z.object({
  body: nonEmpty.max(10_000),
});
