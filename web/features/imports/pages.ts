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
