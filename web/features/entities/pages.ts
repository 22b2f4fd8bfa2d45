import type { ComponentType } from 'react';

/** The entity pages, each its own chunk: the router fetches one when its route is first visited. */
export const ENTITY_PAGES = {
  'entity-list': () => import('./entity-list-page.tsx').then((m) => ({ Component: m.EntityListPage })),
  'entity-wizard': () => import('./entity-wizard-page.tsx').then((m) => ({ Component: m.EntityWizardPage })),
  'entity-structure': () =>
    import('./entity-structure-page.tsx').then((m) => ({ Component: m.EntityStructurePage })),
  'entity-edit': () => import('./entity-edit-page.tsx').then((m) => ({ Component: m.EntityEditPage })),
  'entity-import': () => import('./entity-import-page.tsx').then((m) => ({ Component: m.EntityImportPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type EntityPageKey = keyof typeof ENTITY_PAGES;
