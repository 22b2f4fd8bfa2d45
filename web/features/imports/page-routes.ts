// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { ImportPageKey } from './pages.ts';

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
