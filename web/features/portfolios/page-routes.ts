// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { PortfolioPageKey } from './pages.ts';

/** Which page serves each portfolio route path. */
export const PORTFOLIO_PAGE_OF: Readonly<Record<string, PortfolioPageKey>> = {
  '/portfolios': 'portfolio-list',
  '/portfolios/manage': 'portfolio-manage',
  '/portfolios/create': 'portfolio-create',
  '/portfolios/:id/edit': 'portfolio-edit',
  '/portfolios/:id/assets': 'portfolio-assets',
  '/portfolios/:id/reports': 'portfolio-reports',
};
