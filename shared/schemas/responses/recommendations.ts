import type * as z from 'zod';
import type { recommendationSchema } from '../recommendation.ts';
import type { ListPage } from './common.ts';

/** A recommendation as the API answers it: for one site, or company-wide when it has no site. */
export type RecommendationView = z.output<typeof recommendationSchema> & { _id: string };

/** GET /recommendations */
export type RecommendationPage = ListPage<RecommendationView>;
