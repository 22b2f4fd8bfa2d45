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

/** Which page serves each targets route path. */
export const TARGET_PAGE_OF: Readonly<Record<string, TargetPageKey>> = {
  '/targets/dashboard': 'targets-dashboard',
  '/targets/manage': 'targets-manage',
  '/targets/calendar': 'targets-calendar',
};
