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

/** Which page serves each portfolio route path. */
export const PORTFOLIO_PAGE_OF: Readonly<Record<string, PortfolioPageKey>> = {
  '/portfolios': 'portfolio-list',
  '/portfolios/manage': 'portfolio-manage',
  '/portfolios/create': 'portfolio-create',
  '/portfolios/:id/edit': 'portfolio-edit',
  '/portfolios/:id/assets': 'portfolio-assets',
  '/portfolios/:id/reports': 'portfolio-reports',
};
