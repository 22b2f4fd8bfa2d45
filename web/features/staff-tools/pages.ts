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
