import type { ComponentType } from 'react';

/** The staff tools over the util calls, each its own chunk. */
export const STAFF_TOOL_PAGES = {
  'staff-stats': () => import('./global-stats-page.tsx').then((m) => ({ Component: m.GlobalStatsPage })),
  'staff-map': () => import('./global-assets-page.tsx').then((m) => ({ Component: m.GlobalAssetsPage })),
  'staff-gridfetch-usage': () =>
    import('./gridfetch-usage-page.tsx').then((m) => ({ Component: m.GridfetchUsagePage })),
  'staff-gridfetch-loa': () =>
    import('./gridfetch-loa-page.tsx').then((m) => ({ Component: m.GridfetchLoaPage })),
  'staff-gas-prediction': () =>
    import('./gas-prediction-page.tsx').then((m) => ({ Component: m.GasPredictionPage })),
  'staff-admin-dashboard': () =>
    import('./admin-dashboard-page.tsx').then((m) => ({ Component: m.AdminDashboardPage })),
  'staff-asset': () => import('./admin-asset-page.tsx').then((m) => ({ Component: m.AdminAssetPage })),
  'staff-websocket': () =>
    import('./admin-websocket-page.tsx').then((m) => ({ Component: m.AdminWebsocketPage })),
  'staff-settings': () =>
    import('./admin-settings-page.tsx').then((m) => ({ Component: m.AdminSettingsPage })),
  'staff-log': () => import('./admin-log-page.tsx').then((m) => ({ Component: m.AdminLogPage })),
  'staff-emails': () => import('./admin-emails-page.tsx').then((m) => ({ Component: m.AdminEmailsPage })),
  'staff-marketplace': () =>
    import('./admin-marketplace-page.tsx').then((m) => ({ Component: m.AdminMarketplacePage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type StaffToolPageKey = keyof typeof STAFF_TOOL_PAGES;

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
