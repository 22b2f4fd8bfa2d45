import * as z from 'zod';

export const emailSchema = z.object({
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string().optional(),
  status: z.enum(['accepted', 'refused']).default('accepted'),
  reason: z.string().optional(),
  attachments: z.array(z.object({ _id: z.string(), fileName: z.string(), key: z.string() })).default([]),
});
