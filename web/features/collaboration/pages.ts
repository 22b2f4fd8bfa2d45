import type { ComponentType } from 'react';

/** The discussion pages, their own chunk. */
export const COLLABORATION_PAGES = {
  'asset-discussion': () => import('./discussion-page.tsx'),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type CollaborationPageKey = keyof typeof COLLABORATION_PAGES;
