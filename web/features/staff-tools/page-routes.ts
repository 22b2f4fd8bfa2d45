// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { StaffToolPageKey } from './pages.ts';

/** Which page serves each staff tool route, by the route's name. */
const PAGE_OF_ROUTE: Readonly<Record<string, StaffToolPageKey>> = {
  'admin-tools-stats': 'staff-stats',
  'admin-tools-map': 'staff-map',
  'admin-gridfetch-usage': 'staff-gridfetch-usage',
  'admin-gridfetch-loa': 'staff-gridfetch-loa',
  'admin-tools-gas-prediction': 'staff-gas-prediction',
  'admin-dashboard': 'staff-admin-dashboard',
  'admin-tools-asset': 'staff-asset',
  'admin-tools-websocket': 'staff-websocket',
  'admin-settings': 'staff-settings',
  'admin-log': 'staff-log',
  'admin-emails': 'staff-emails',
  'admin-marketplace': 'staff-marketplace',
};

/** Gives a staff tool route its page; others keep theirs. */
export function withStaffToolPage<R extends { name: string; page: string }>(route: R): R {
  const page = PAGE_OF_ROUTE[route.name];
  return page ? ({ ...route, page } as R) : route;
}
