import type { ComponentType } from 'react';

/** The carbon marketplace pages, each its own chunk. */
export const MARKETPLACE_PAGES = {
  'marketplace-carbon': () =>
    import('./carbon-catalogue-page.tsx').then((m) => ({ Component: m.CarbonCataloguePage })),
  'marketplace-carbon-project': () =>
    import('./carbon-project-page.tsx').then((m) => ({ Component: m.CarbonProjectPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type MarketplacePageKey = keyof typeof MARKETPLACE_PAGES;
