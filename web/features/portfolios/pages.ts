import type { ComponentType } from 'react';

/** The portfolio pages, each its own chunk: the router fetches one when its route is first visited. */
export const PORTFOLIO_PAGES = {
  'portfolio-list': () =>
    import('./portfolio-list-page.tsx').then((m) => ({ Component: m.PortfolioListPage })),
  'portfolio-manage': () =>
    import('./portfolio-manage-page.tsx').then((m) => ({ Component: m.PortfolioManagePage })),
  'portfolio-create': () =>
    import('./portfolio-form-pages.tsx').then((m) => ({ Component: m.PortfolioCreatePage })),
  'portfolio-edit': () =>
    import('./portfolio-form-pages.tsx').then((m) => ({ Component: m.PortfolioEditPage })),
  'portfolio-assets': () =>
    import('./portfolio-assets-page.tsx').then((m) => ({ Component: m.PortfolioAssetsPage })),
  'portfolio-reports': () =>
    import('./portfolio-reports-page.tsx').then((m) => ({ Component: m.PortfolioReportsPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type PortfolioPageKey = keyof typeof PORTFOLIO_PAGES;
