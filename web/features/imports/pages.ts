import type { ComponentType } from 'react';

/** The import pages, each its own chunk: fetched when its route is first visited. */
export const IMPORT_PAGES = {
  'import-list': () => import('./import-list-page.tsx').then((m) => ({ Component: m.ImportListPage })),
  'import-upload': () => import('./import-upload-page.tsx').then((m) => ({ Component: m.ImportUploadPage })),
  'import-mapping': () =>
    import('./import-mapping-page.tsx').then((m) => ({ Component: m.ImportMappingPage })),
  'import-preview': () =>
    import('./import-preview-page.tsx').then((m) => ({ Component: m.ImportPreviewPage })),
  'import-run': () => import('./import-run-page.tsx').then((m) => ({ Component: m.ImportRunPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type ImportPageKey = keyof typeof IMPORT_PAGES;

/** Which page serves each import route path. */
export const IMPORT_PAGE_OF: Readonly<Record<string, ImportPageKey>> = {
  '/imports': 'import-list',
  '/imports/:id/detail': 'import-run',
  '/imports/wizard/upload': 'import-upload',
  '/imports/wizard/:id/mapping': 'import-mapping',
  '/imports/wizard/:id/preview': 'import-preview',
  '/imports/wizard/:id/import': 'import-run',
};

/** An import route served by its page here; other routes pass through unchanged. */
export function withImportPage<R extends { path: string; page: string }>(route: R): R {
  const page = IMPORT_PAGE_OF[route.path];
  return page ? { ...route, page } : route;
}
