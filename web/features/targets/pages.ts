import type { ComponentType } from 'react';

/** The targets pages, each its own chunk. */
export const TARGET_PAGES = {
  'targets-dashboard': () =>
    import('./target-dashboard-page.tsx').then((m) => ({ Component: m.TargetDashboardPage })),
  'targets-manage': () => import('./target-manage-page.tsx').then((m) => ({ Component: m.TargetManagePage })),
  'targets-calendar': () =>
    import('./regulatory-calendar-page.tsx').then((m) => ({ Component: m.RegulatoryCalendarPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type TargetPageKey = keyof typeof TARGET_PAGES;
