import * as z from 'zod';
import { idSchema, nonEmpty } from './common.ts';

export const RECOMMENDATION_STATUSES = ['open', 'accepted', 'in-progress', 'done', 'dismissed'] as const;

/** A recommendation for one site (assetId), or a company-wide ("global") one that sites can copy. */
export const recommendationSchema = z.object({
  title: nonEmpty.max(200),
  description: z.string().max(5000).optional(),
  assetId: idSchema.optional(),
  category: z.string().max(100).optional(),
  estimatedSaving: z.number().optional(),
  estimatedCost: z.number().nonnegative().optional(),
  priority: z.enum(['low', 'medium', 'high']).default('medium'),
  status: z.enum(RECOMMENDATION_STATUSES).default('open'),
  globalRecommendationId: idSchema.optional(),
});
