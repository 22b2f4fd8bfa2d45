import type { AreaDecl } from './area.ts';
import { ACCOUNTS_AREA } from './areas/accounts.ts';
import { ANALYTICS_AREA } from './areas/analytics.ts';
import { ASSETS_AREA } from './areas/assets.ts';
import { AUTOMATION_AREA } from './areas/automation.ts';
import { BENCHMARKS_AREA } from './areas/benchmarks.ts';
import { COLLABORATION_AREA } from './areas/collaboration.ts';
import { COMPANY_AREA } from './areas/company.ts';
import { ENTITIES_AREA } from './areas/entities.ts';
import { IMPORTS_AREA } from './areas/imports.ts';
import { INVOICES_AREA } from './areas/invoices.ts';
import { KIOSK_AREA } from './areas/kiosk.ts';
import { LOOKUPS_AREA } from './areas/lookups.ts';
import { MARKETPLACE_AREA } from './areas/marketplace.ts';
import { NOTIFICATIONS_AREA } from './areas/notifications.ts';
import { PORTFOLIOS_AREA } from './areas/portfolios.ts';
import { PROFILE_AREA } from './areas/profile.ts';
import { RECOMMENDATIONS_AREA } from './areas/recommendations.ts';
import { REPORTS_AREA } from './areas/reports.ts';
import { SEARCH_AREA } from './areas/search.ts';
import { STAFF_TOOLS_AREA } from './areas/staff-tools.ts';
import { SUPPLIERS_AREA } from './areas/suppliers.ts';
import { TARGETS_AREA } from './areas/targets.ts';

/**
 * Every area of the product, each declared in `areas/<name>.ts`: the system's resources, routes, queues,
 * subscriptions and schedules are the union of theirs. Adding an area is adding its folders and its line here.
 */
export const AREAS: readonly AreaDecl[] = [
  ENTITIES_AREA,
  ASSETS_AREA,
  PORTFOLIOS_AREA,
  ACCOUNTS_AREA,
  RECOMMENDATIONS_AREA,
  SUPPLIERS_AREA,
  LOOKUPS_AREA,
  COMPANY_AREA,
  PROFILE_AREA,
  NOTIFICATIONS_AREA,
  IMPORTS_AREA,
  STAFF_TOOLS_AREA,
  COLLABORATION_AREA,
  KIOSK_AREA,
  INVOICES_AREA,
  AUTOMATION_AREA,
  ANALYTICS_AREA,
  REPORTS_AREA,
  BENCHMARKS_AREA,
  MARKETPLACE_AREA,
  SEARCH_AREA,
  TARGETS_AREA,
];
