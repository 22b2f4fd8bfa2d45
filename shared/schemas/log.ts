import * as z from 'zod';

export const logSchema = z.object({
  type: z.string().max(50),
  modelId: z.string().optional(),
  model: z.string().optional(),
  userSub: z.string().optional(),
  message: z.string().max(2000).optional(),
  batchId: z.string().optional(),
});
