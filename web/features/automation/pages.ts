import type { ComponentType } from 'react';

/** The automation pages, each its own chunk. */
export const AUTOMATION_PAGES = {
  'automation-manage': () =>
    import('./automation-manage-page.tsx').then((m) => ({ Component: m.AutomationManagePage })),
  'automation-runs': () =>
    import('./automation-runs-page.tsx').then((m) => ({ Component: m.AutomationRunsPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type AutomationPageKey = keyof typeof AUTOMATION_PAGES;
