import type { ComponentType } from 'react';

/** The connector pages, each its own chunk. */
export const CONNECTOR_PAGES = {
  'connectors-dashboard': () =>
    import('./connector-pages.tsx').then((m) => ({ Component: m.ConnectorDashboardPage })),
  'connectors-runs': () => import('./connector-pages.tsx').then((m) => ({ Component: m.ConnectorRunsPage })),
  'connectors-manage': () =>
    import('./connector-manage-page.tsx').then((m) => ({ Component: m.ConnectorManagePage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type ConnectorPageKey = keyof typeof CONNECTOR_PAGES;
