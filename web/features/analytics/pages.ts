import type { ComponentType } from 'react';

/** The Insights pages share one chunk, fetched when the first of them is visited. */
export const ANALYTICS_PAGES = {
  'analytics-emissions': () => import('./insights-page.tsx').then((m) => ({ Component: m.EmissionsPage })),
  'analytics-consumption': () =>
    import('./insights-page.tsx').then((m) => ({ Component: m.ConsumptionPage })),
  'analytics-costs': () => import('./insights-page.tsx').then((m) => ({ Component: m.CostsPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type AnalyticsPageKey = keyof typeof ANALYTICS_PAGES;

/** The Insights routes are named as their pages: each takes its own page. */
export function withAnalyticsPage<R extends { name: string; page: string }>(route: R): R {
  return Object.hasOwn(ANALYTICS_PAGES, route.name) ? { ...route, page: route.name } : route;
}
