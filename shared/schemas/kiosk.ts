import * as z from 'zod';
import { idSchema, nonEmpty } from './common.ts';

export const kioskSchema = z.object({
  name: nonEmpty.max(200),
  assetId: idSchema,
  slides: z.array(z.enum(['leaderboard', 'consumption', 'news', 'energy-usage', 'carbon'])).default([]),
});
