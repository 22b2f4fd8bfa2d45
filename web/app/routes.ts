import { PERMISSION_NAMES, type RoutePermission } from '../../shared/access/permission-names.ts';
import { ACCOUNT_SUB_PAGES } from '../features/accounts/page-routes.ts';
import type { AccountPageKey } from '../features/accounts/pages.ts';
import { type AnalyticsPageKey, withAnalyticsPage } from '../features/analytics/pages.ts';
import { withAssetPage } from '../features/assets/page-routes.ts';
import type { AssetPageKey } from '../features/assets/pages.ts';
import { AUTOMATION_PAGE_OF } from '../features/automation/page-routes.ts';
import type { AutomationPageKey } from '../features/automation/pages.ts';
import { type BenchmarkPageKey, withBenchmarkPage } from '../features/benchmarks/pages.ts';
import type { CollaborationPageKey } from '../features/collaboration/pages.ts';
import { withCompanyPage } from '../features/company/page-routes.ts';
import type { CompanyPageKey } from '../features/company/pages.ts';
import { CONNECTOR_PAGE_OF } from '../features/connectors/page-routes.ts';
import type { ConnectorPageKey } from '../features/connectors/pages.ts';
import { ENTITY_PAGE_OF } from '../features/entities/page-routes.ts';
import type { EntityPageKey } from '../features/entities/pages.ts';
import { withImportPage } from '../features/imports/page-routes.ts';
import type { ImportPageKey } from '../features/imports/pages.ts';
import { ACCOUNT_INVOICE_SUB_PAGES, withInvoicePage } from '../features/invoices/page-routes.ts';
import type { InvoicePageKey } from '../features/invoices/pages.ts';
import type { KioskPageKey } from '../features/kiosk/pages.ts';
import type { MarketplacePageKey } from '../features/marketplace/pages.ts';
import { PORTFOLIO_PAGE_OF } from '../features/portfolios/page-routes.ts';
import type { PortfolioPageKey } from '../features/portfolios/pages.ts';
import type { RecommendationPageKey } from '../features/recommendations/pages.ts';
import { REPORT_PAGE_OF } from '../features/reports/page-routes.ts';
import type { ReportPageKey } from '../features/reports/pages.ts';
import { withStaffToolPage } from '../features/staff-tools/page-routes.ts';
import type { StaffToolPageKey } from '../features/staff-tools/pages.ts';
import { SUPPLIER_PAGE_OF } from '../features/suppliers/page-routes.ts';
import type { SupplierPageKey } from '../features/suppliers/pages.ts';
import { TARGET_PAGE_OF } from '../features/targets/page-routes.ts';
import type { TargetPageKey } from '../features/targets/pages.ts';

/** Which page component serves a route; areas not built yet share the 'not available yet' page. */
export type PageKey =
  | 'dashboard'
  | 'profile'
  | 'notifications'
  | 'not-available'
  | AccountPageKey
  | AnalyticsPageKey
  | BenchmarkPageKey
  | CollaborationPageKey
  | CompanyPageKey
  | AutomationPageKey
  | ConnectorPageKey
  | EntityPageKey
  | ImportPageKey
  | KioskPageKey
  | MarketplacePageKey
  | PortfolioPageKey
  | RecommendationPageKey
  | ReportPageKey
  | StaffToolPageKey
  | SupplierPageKey
  | TargetPageKey
  | AssetPageKey
  | InvoicePageKey;

/** A signed-in route of the shell (01 §2.2), in react-router path syntax. */
export interface AppRoute {
  name: string;
  path: string;
  permission: RoutePermission;
  /** The product area, shown as the heading of pages not built yet. */
  area: string;
  page: PageKey;
  /** Set on paths that only lead to their default sub-page. */
  redirectTo?: string;
}

// Permission groups, from the key route permissions of 01 §6 and the resource permissions of the API.
const EVERYONE: RoutePermission = '*';
/** Everyone but API-only users, who reach only their profile (01 §6). */
const APP_USERS: RoutePermission = PERMISSION_NAMES.filter((p) => p !== 'api_access_only');
const PORTFOLIO = ['company_user', 'company_user_full', 'entity_user', 'asset_user', 'account_user'] as const;
const ENTITIES = ['company_user', 'company_user_full', 'entity_user'] as const;
const ASSETS = ['company_user', 'company_user_full', 'entity_user', 'asset_user'] as const;
const COMPANY_WIDE = ['company_user', 'company_user_full'] as const;
const COMPANY_USER = ['company_user'] as const;
const COMPANY_ADMIN = ['company_admin'] as const;
const COMPANY_USERS_LIST = ['company_owner', 'company_user', 'company_user_full'] as const;
const COMPANY_LOG = ['company_admin', 'company_log'] as const;
const AUTOMATION = ['company_admin', 'view_integrations'] as const;
const INVOICE_UPLOAD = ['company_admin', 'bill_validation'] as const;
const BILL_VALIDATION = ['company_admin', 'bill_validation', 'bill_validation_v2'] as const;
const BILL_VALIDATION_BETA = ['company_admin', 'bill_validation_v2'] as const;
/** An empty list admits admins only. */
const ADMIN: RoutePermission = [];

const route = (
  name: string,
  path: string,
  permission: RoutePermission,
  area: string,
  page: PageKey = 'not-available',
): AppRoute => ({ name, path, permission, area, page });

const redirect = (name: string, path: string, to: string, permission: RoutePermission, area: string) => ({
  ...route(name, path, permission, area),
  redirectTo: to,
});

/** Several sub-pages of one area under one base path; '' is the base path itself. */
const pages = (
  prefix: string,
  base: string,
  subs: readonly string[],
  permission: RoutePermission,
  area: string,
) =>
  subs.map((sub) =>
    sub
      ? route(
          `${prefix}-${sub.replace(/[:/]+/g, '-').replace(/^-|-$/g, '')}`,
          `${base}/${sub}`,
          permission,
          area,
        )
      : route(prefix, base, permission, area),
  );

const ASSET_ACCOUNT_PAGES = [
  'overview',
  'consumption',
  'invoices',
  'credit-notes',
  'readings',
  'contracts',
  'data-quality',
  'edit',
] as const;
const SUPPLIER_TEMPLATES = ['electricity', 'solar', 'gas', 'water', 'waste', 'heating', 'cooling'] as const;

export const APP_ROUTES: readonly AppRoute[] = [
  route('Home', '/', APP_USERS, 'Dashboard', 'dashboard'),
  route('profile', '/profile', EVERYONE, 'Profile', 'profile'),
  route('notifications', '/notifications', APP_USERS, 'Notifications', 'notifications'),
  route('entity-wizard', '/new-entity', COMPANY_WIDE, 'Entities', 'entity-wizard'),
  route('account-wizard', '/new-account', ASSETS, 'Accounts', 'account-wizard'),
  route('account-view', '/accounts/:id', PORTFOLIO, 'Accounts', 'account-view'),

  withStaffToolPage(route('admin-dashboard', '/admin', ADMIN, 'Admin')),
  // The spec names sub-pages only for tools and gridfetch: their bare paths open the first one.
  redirect('admin-tools', '/admin/tools', '/admin/tools/stats', ADMIN, 'Admin'),
  ...pages(
    'admin-tools',
    '/admin/tools',
    ['stats', 'asset', 'websocket', 'map', 'gas-prediction'],
    ADMIN,
    'Admin',
  ).map(withStaffToolPage),
  ...pages('admin', '/admin', ['kiosks', 'settings', 'log', 'emails', 'marketplace'], ADMIN, 'Admin')
    .map(withStaffToolPage)
    .map((r) => (r.name === 'admin-kiosks' ? { ...r, page: 'kiosk-admin' as const } : r)),
  redirect('admin-gridfetch', '/admin/gridfetch', '/admin/gridfetch/loa', ADMIN, 'Admin'),
  ...pages('admin-gridfetch', '/admin/gridfetch', ['loa', 'usage'], ADMIN, 'Admin').map(withStaffToolPage),

  redirect('analytics', '/analytics', '/analytics/emissions', PORTFOLIO, 'Insights'),
  ...pages('analytics', '/analytics', ['emissions', 'consumption', 'costs'], PORTFOLIO, 'Insights').map(
    withAnalyticsPage,
  ),

  withAssetPage(route('asset-list', '/assets', ASSETS, 'Sites')),
  withAssetPage(route('asset-wizard', '/assets/wizard', COMPANY_WIDE, 'Sites')),
  redirect('asset', '/assets/:id', '/assets/:id/overview', ASSETS, 'Sites'),
  ...pages(
    'asset',
    '/assets/:id',
    ['overview', 'recommendations', 'risks', 'tenants', 'manage'],
    ASSETS,
    'Sites',
  ).map(withAssetPage),
  route('asset-accounts', '/assets/:id/accounts', ASSETS, 'Sites', 'asset-accounts'),
  redirect(
    'asset-account',
    '/assets/:id/accounts/:accountId',
    '/assets/:id/accounts/:accountId/overview',
    PORTFOLIO,
    'Sites',
  ),
  ...pages('asset-account', '/assets/:id/accounts/:accountId', ASSET_ACCOUNT_PAGES, PORTFOLIO, 'Sites').map(
    (r) => {
      const sub = r.path.split('/').at(-1) ?? '';
      return { ...r, page: ACCOUNT_SUB_PAGES[sub] ?? ACCOUNT_INVOICE_SUB_PAGES[sub] ?? r.page };
    },
  ),
  route('asset-discussion', '/assets/:id/discussion/:messageId?', ASSETS, 'Sites', 'asset-discussion'),
  ...pages('asset-reports', '/assets/:id/reports', ['', ':reportType/download'], ASSETS, 'Sites').map(
    (r) => ({ ...r, page: REPORT_PAGE_OF[r.path] ?? r.page }),
  ),
  ...pages(
    'asset-projects',
    '/assets/:id/projects',
    ['', 'create', ':projectId', ':projectId/edit'],
    ASSETS,
    'Sites',
  ).map(withAssetPage),
  ...pages('asset-documents', '/assets/:id/documents', ['', ':certificateId'], ASSETS, 'Sites').map(
    withAssetPage,
  ),

  redirect('automation', '/automation', '/automation/manage', AUTOMATION, 'Automation'),
  ...pages('automation', '/automation', ['manage', 'runs'], AUTOMATION, 'Automation').map((r) => ({
    ...r,
    page: AUTOMATION_PAGE_OF[r.path] ?? r.page,
  })),

  redirect('benchmarks', '/benchmarks', '/benchmarks/crrem', PORTFOLIO, 'Benchmarks'),
  ...pages('benchmarks', '/benchmarks', ['crrem', 'leti', 'reeb', 'etn'], PORTFOLIO, 'Benchmarks').map(
    withBenchmarkPage,
  ),

  ...[
    route('company-create', '/companies/create', ADMIN, 'Company'),
    route('company-log', '/company/log', COMPANY_LOG, 'Company'),
    redirect('company', '/company', '/company/manage', COMPANY_ADMIN, 'Company'),
    route('company-manage', '/company/manage', COMPANY_ADMIN, 'Company'),
    route('company-users', '/company/users', COMPANY_USERS_LIST, 'Company'),
    ...pages('company-users', '/company/users', ['create', ':userId/edit'], COMPANY_ADMIN, 'Company'),
    ...pages('company-roles', '/company/roles', ['', 'create', ':roleId/edit'], COMPANY_ADMIN, 'Company'),
    ...pages(
      'company-permissions',
      '/company/permissions',
      ['', 'create', ':permissionId/edit'],
      COMPANY_ADMIN,
      'Company',
    ),
  ].map(withCompanyPage),

  route('entity-list', '/entities', ENTITIES, 'Entities', 'entity-list'),
  route('entity-import', '/entities/import', COMPANY_USER, 'Entities', 'entity-import'),
  redirect('entity', '/entities/:id', '/entities/:id/structure', ENTITIES, 'Entities'),
  ...pages('entity', '/entities/:id', ['structure', 'edit'], ENTITIES, 'Entities').map((r) => ({
    ...r,
    page: ENTITY_PAGE_OF[r.path] ?? r.page,
  })),

  withImportPage(route('import-list', '/imports', COMPANY_USER, 'Import Data')),
  withImportPage(route('import-detail', '/imports/:id/detail', COMPANY_USER, 'Import Data')),
  ...pages(
    'import-wizard',
    '/imports/wizard',
    ['upload', ':id/mapping', ':id/preview', ':id/import'],
    COMPANY_USER,
    'Import Data',
  ).map(withImportPage),

  withInvoicePage(route('invoice-upload', '/invoices/upload', INVOICE_UPLOAD, 'Invoices')),

  redirect(
    'invoice-validation',
    '/invoice-validation',
    '/invoice-validation/failed',
    BILL_VALIDATION,
    'Bill Validation',
  ),
  ...pages(
    'invoice-validation',
    '/invoice-validation',
    ['passed', 'failed', 'completed', 'upload', ':id'],
    BILL_VALIDATION,
    'Bill Validation',
  ).map(withInvoicePage),
  withInvoicePage(
    route(
      'invoice-captures',
      '/invoice-validation/invoice-captures',
      BILL_VALIDATION_BETA,
      'Bill Validation BETA',
    ),
  ),

  route('marketplace-carbon', '/marketplace/carbon', COMPANY_USER, 'Marketplace', 'marketplace-carbon'),
  route(
    'marketplace-carbon-id',
    '/marketplace/carbon/:id',
    COMPANY_USER,
    'Marketplace',
    'marketplace-carbon',
  ),

  ...pages('portfolios', '/portfolios', ['', 'manage', 'create', ':id/edit'], ASSETS, 'Portfolios').map(
    (r) => ({
      ...r,
      page: PORTFOLIO_PAGE_OF[r.path] ?? r.page,
    }),
  ),
  redirect('portfolio', '/portfolios/:id', '/portfolios/:id/assets', ASSETS, 'Portfolios'),
  ...pages(
    'portfolio',
    '/portfolios/:id',
    ['assets', 'reports', 'reports/:reportType/download'],
    ASSETS,
    'Portfolios',
  ).map((r) => ({ ...r, page: PORTFOLIO_PAGE_OF[r.path] ?? REPORT_PAGE_OF[r.path] ?? r.page })),

  // The company's own recommendations (GET, PATCH, DELETE /recommendations/global/{id}); 01 §2 names no
  // path for them, so they sit beside the site pages that copy them, for company-wide users only.
  route('recommendations', '/recommendations', COMPANY_WIDE, 'Recommendations', 'global-recommendations'),

  ...pages(
    'reports',
    '/reports',
    ['', 'dynamic', 'generate', 'builder', ':id/download', ':id/chart', 'templates', 'history', 'schedule'],
    PORTFOLIO,
    'Reports',
  ).map((r) => ({
    ...r,
    page: REPORT_PAGE_OF[r.path] ?? r.page,
    // Scheduled reports are the company's, read and written by company-wide users only.
    ...(r.path === '/reports/schedule' ? { permission: COMPANY_WIDE } : {}),
  })),

  redirect('connectors', '/connectors', '/connectors/dashboard', COMPANY_ADMIN, 'Connectors'),
  ...pages('connectors', '/connectors', ['dashboard', 'runs', 'manage'], COMPANY_ADMIN, 'Connectors').map(
    (r) => ({ ...r, page: CONNECTOR_PAGE_OF[r.path] ?? r.page }),
  ),

  ...pages('suppliers', '/suppliers', ['', 'create'], ADMIN, 'Suppliers').map((r) => ({
    ...r,
    page: SUPPLIER_PAGE_OF[r.path] ?? r.page,
  })),
  redirect('supplier', '/suppliers/:id', '/suppliers/:id/overview', ADMIN, 'Suppliers'),
  ...pages('supplier', '/suppliers/:id', ['overview', 'edit'], ADMIN, 'Suppliers').map((r) => ({
    ...r,
    page: SUPPLIER_PAGE_OF[r.path] ?? r.page,
  })),
  ...pages('supplier-templates', '/suppliers/:id/templates', SUPPLIER_TEMPLATES, ADMIN, 'Suppliers').map(
    (r) => ({ ...r, page: SUPPLIER_PAGE_OF[r.path] ?? r.page }),
  ),

  // 01 §6 has targets for admins only; they are now for everyone who runs the portfolio, each seeing the
  // targets of the scopes they may read (the API rules which).
  redirect('targets', '/targets', '/targets/dashboard', PORTFOLIO, 'Targets'),
  ...pages('targets', '/targets', ['dashboard', 'manage', 'calendar'], PORTFOLIO, 'Targets').map((r) => ({
    ...r,
    page: TARGET_PAGE_OF[r.path] ?? r.page,
  })),
];

/** Routes outside the signed-in shell (01 §2.1). */
export const PUBLIC_PATHS = {
  login: '/login',
  logout: '/logout',
  callback: '/auth/callback',
  forbidden: '/forbidden',
  kioskError: '/kiosk/error',
  machineError: '/m2m/error',
  kiosk: '/kiosk/:id',
  machineAsset: '/m2m/asset',
  machinePdf: '/m2m/pdf',
} as const;

const byPath = new Map(APP_ROUTES.map((r) => [r.path, r]));

export function routeByPath(path: string): AppRoute | undefined {
  return byPath.get(path);
}
