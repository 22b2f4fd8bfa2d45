// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { TargetPageKey } from './pages.ts';

/** Which page serves each targets route path. */
export const TARGET_PAGE_OF: Readonly<Record<string, TargetPageKey>> = {
  '/targets/dashboard': 'targets-dashboard',
  '/targets/manage': 'targets-manage',
  '/targets/calendar': 'targets-calendar',
};
