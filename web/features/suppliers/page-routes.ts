// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { SupplierPageKey } from './pages.ts';

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
