import type { ComponentType } from 'react';

/** The report pages, each its own chunk. */
export const REPORT_PAGES = {
  reports: () => import('./reports-page.tsx').then((m) => ({ Component: m.ReportsPage })),
  'report-history': () => import('./reports-page.tsx').then((m) => ({ Component: m.ReportHistoryPage })),
  'report-builder': () =>
    import('./report-builder-page.tsx').then((m) => ({ Component: m.ReportBuilderPage })),
  'report-schedule': () => import('./schedule-page.tsx').then((m) => ({ Component: m.ReportSchedulePage })),
  'report-templates': () =>
    import('./report-templates-page.tsx').then((m) => ({ Component: m.ReportTemplatesPage })),
  'report-dynamic': () =>
    import('./dynamic-report-page.tsx').then((m) => ({ Component: m.DynamicReportPage })),
  'report-file': () => import('./report-file-page.tsx').then((m) => ({ Component: m.ReportFilePage })),
  'report-chart': () => import('./report-chart-page.tsx').then((m) => ({ Component: m.ReportChartPage })),
  'site-reports': () => import('./reports-page.tsx').then((m) => ({ Component: m.SiteReportsPage })),
  'site-report-download': () =>
    import('./report-download-page.tsx').then((m) => ({ Component: m.SiteReportDownloadPage })),
  'portfolio-report-download': () =>
    import('./report-download-page.tsx').then((m) => ({ Component: m.PortfolioReportDownloadPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type ReportPageKey = keyof typeof REPORT_PAGES;
