import type { ComponentType } from 'react';

/** The carbon marketplace pages, one chunk for the catalogue and its projects. */
export const MARKETPLACE_PAGES = {
  'marketplace-carbon': () => import('./marketplace-page.tsx'),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type MarketplacePageKey = keyof typeof MARKETPLACE_PAGES;
