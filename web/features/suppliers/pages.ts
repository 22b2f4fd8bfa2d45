import type { ComponentType } from 'react';

/** The supplier pages, each its own chunk: the router fetches one when its route is first visited. */
export const SUPPLIER_PAGES = {
  'supplier-list': () => import('./supplier-list-page.tsx').then((m) => ({ Component: m.SupplierListPage })),
  'supplier-create': () =>
    import('./supplier-create-page.tsx').then((m) => ({ Component: m.SupplierCreatePage })),
  'supplier-overview': () =>
    import('./supplier-overview-page.tsx').then((m) => ({ Component: m.SupplierOverviewPage })),
  'supplier-edit': () => import('./supplier-edit-page.tsx').then((m) => ({ Component: m.SupplierEditPage })),
  'supplier-templates': () =>
    import('./template-editor-page.tsx').then((m) => ({ Component: m.SupplierTemplatesPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type SupplierPageKey = keyof typeof SUPPLIER_PAGES;
