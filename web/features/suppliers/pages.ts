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

/** Which page serves each supplier route path. */
export const SUPPLIER_PAGE_OF: Readonly<Record<string, SupplierPageKey>> = {
  '/suppliers': 'supplier-list',
  '/suppliers/create': 'supplier-create',
  '/suppliers/:id/overview': 'supplier-overview',
  '/suppliers/:id/edit': 'supplier-edit',
  ...Object.fromEntries(
    ['electricity', 'solar', 'gas', 'water', 'waste', 'heating', 'cooling'].map((u) => [
      `/suppliers/:id/templates/${u}`,
      'supplier-templates' as const,
    ]),
  ),
};
