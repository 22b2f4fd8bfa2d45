import type { ComponentType } from 'react';
import { ACCOUNT_PAGES } from '../features/accounts/pages.ts';
import { ANALYTICS_PAGES } from '../features/analytics/pages.ts';
import { ASSET_PAGES } from '../features/assets/pages.ts';
import { AUTOMATION_PAGES } from '../features/automation/pages.ts';
import { BENCHMARK_PAGES } from '../features/benchmarks/pages.ts';
import { COLLABORATION_PAGES } from '../features/collaboration/pages.ts';
import { COMPANY_PAGES } from '../features/company/pages.ts';
import { CONNECTOR_PAGES } from '../features/connectors/pages.ts';
import { ENTITY_PAGES } from '../features/entities/pages.ts';
import { IMPORT_PAGES } from '../features/imports/pages.ts';
import { INVOICE_PAGES } from '../features/invoices/pages.ts';
import { KIOSK_PAGES } from '../features/kiosk/pages.ts';
import { MARKETPLACE_PAGES } from '../features/marketplace/pages.ts';
import { PORTFOLIO_PAGES } from '../features/portfolios/pages.ts';
import { RECOMMENDATION_PAGES } from '../features/recommendations/pages.ts';
import { REPORT_PAGES } from '../features/reports/pages.ts';
import { STAFF_TOOL_PAGES } from '../features/staff-tools/pages.ts';
import { SUPPLIER_PAGES } from '../features/suppliers/pages.ts';
import { TARGET_PAGES } from '../features/targets/pages.ts';
import type { PageKey } from './routes.ts';

type LazyPage = () => Promise<{ Component: ComponentType }>;

/**
 * Each page is its own chunk, fetched when its route is first visited. The dashboard is not here: the
 * shell loads it itself, being where every signed-in user lands.
 */
export const PAGE_LOADERS: Record<Exclude<PageKey, 'dashboard'>, LazyPage> = {
  profile: () => import('../features/profile/profile-page.tsx').then((m) => ({ Component: m.ProfilePage })),
  notifications: () =>
    import('../features/notifications/notifications-page.tsx').then((m) => ({
      Component: m.NotificationsPage,
    })),
  ...ACCOUNT_PAGES,
  ...ANALYTICS_PAGES,
  ...ASSET_PAGES,
  ...BENCHMARK_PAGES,
  ...COLLABORATION_PAGES,
  ...COMPANY_PAGES,
  ...AUTOMATION_PAGES,
  ...CONNECTOR_PAGES,
  ...ENTITY_PAGES,
  ...IMPORT_PAGES,
  ...INVOICE_PAGES,
  ...KIOSK_PAGES,
  ...MARKETPLACE_PAGES,
  ...PORTFOLIO_PAGES,
  ...RECOMMENDATION_PAGES,
  ...REPORT_PAGES,
  ...STAFF_TOOL_PAGES,
  ...SUPPLIER_PAGES,
  ...TARGET_PAGES,
  'not-available': () => import('./pages/message-pages.tsx').then((m) => ({ Component: m.NotAvailablePage })),
};
