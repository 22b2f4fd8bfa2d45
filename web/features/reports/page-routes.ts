// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { ReportPageKey } from './pages.ts';

/** Which page serves each report route path. */
export const REPORT_PAGE_OF: Readonly<Record<string, ReportPageKey>> = {
  '/reports': 'reports',
  '/reports/generate': 'reports',
  '/reports/history': 'report-history',
  '/reports/builder': 'report-builder',
  '/reports/schedule': 'report-schedule',
  '/reports/templates': 'report-templates',
  '/reports/dynamic': 'report-dynamic',
  '/reports/:id/download': 'report-file',
  '/reports/:id/chart': 'report-chart',
  '/assets/:id/reports': 'site-reports',
  '/assets/:id/reports/:reportType/download': 'site-report-download',
  '/portfolios/:id/reports/:reportType/download': 'portfolio-report-download',
};
