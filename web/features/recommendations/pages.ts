import type { ComponentType } from 'react';

/** The company-wide recommendation pages, each its own chunk. */
export const RECOMMENDATION_PAGES = {
  'global-recommendations': () =>
    import('./global-recommendations-page.tsx').then((m) => ({ Component: m.GlobalRecommendationsPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type RecommendationPageKey = keyof typeof RECOMMENDATION_PAGES;
