import type { ComponentType } from 'react';

/** The report pages, each its own chunk. */
export const REPORT_PAGES = {
  reports: () => import('./reports-page.tsx').then((m) => ({ Component: m.ReportsPage })),
  'report-history': () => import('./reports-page.tsx').then((m) => ({ Component: m.ReportHistoryPage })),
  'report-schedule': () => import('./schedule-page.tsx').then((m) => ({ Component: m.ReportSchedulePage })),
  'site-reports': () => import('./reports-page.tsx').then((m) => ({ Component: m.SiteReportsPage })),
  'site-report-download': () =>
    import('./report-download-page.tsx').then((m) => ({ Component: m.SiteReportDownloadPage })),
  'portfolio-report-download': () =>
    import('./report-download-page.tsx').then((m) => ({ Component: m.PortfolioReportDownloadPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type ReportPageKey = keyof typeof REPORT_PAGES;

/** Which page serves each report route path. */
export const REPORT_PAGE_OF: Readonly<Record<string, ReportPageKey>> = {
  '/reports': 'reports',
  '/reports/generate': 'reports',
  '/reports/history': 'report-history',
  '/reports/schedule': 'report-schedule',
  '/assets/:id/reports': 'site-reports',
  '/assets/:id/reports/:reportType/download': 'site-report-download',
  '/portfolios/:id/reports/:reportType/download': 'portfolio-report-download',
};
