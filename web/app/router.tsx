import type { ComponentType } from 'react';
import { createBrowserRouter, generatePath, type LoaderFunctionArgs, redirect } from 'react-router';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { FullPageLoader } from '../components/page-state.tsx';
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
import type { Services } from '../lib/app-context.tsx';
import { loadChunk } from '../lib/chunk-error.ts';
import { loginPath } from '../lib/login-redirect.ts';
import type { Session } from '../lib/session.ts';
import { ShellLayout } from './layout/shell-layout.tsx';
import { CallbackPage } from './pages/callback-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { LogoutPage } from './pages/logout-page.tsx';
import { ForbiddenPage, SomethingWentWrongPage } from './pages/message-pages.tsx';
import { RouteError } from './pages/route-error.tsx';
import { prefetchWhenIdle, sidebarPages } from './prefetch.ts';
import { APP_ROUTES, type AppRoute, type PageKey, PUBLIC_PATHS, routeByPath } from './routes.ts';

type LazyPage = () => Promise<{ Component: ComponentType }>;

/** Each page is its own chunk, fetched when its route is first visited. */
const PAGES: Record<PageKey, LazyPage> = {
  dashboard: () =>
    import('../features/dashboard/dashboard-page.tsx').then((m) => ({ Component: m.DashboardPage })),
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

/** Kiosk and machine views stand outside the signed-in shell and out of its bundle. */
const DEVICE_PAGES = {
  kiosk: () => import('../features/kiosk/kiosk-page.tsx').then((m) => ({ Component: m.KioskPage })),
  kioskError: () =>
    import('../components/device-error-page.tsx').then((m) => ({ Component: m.KioskErrorPage })),
  machineAsset: () =>
    import('../features/machine/machine-pages.tsx').then((m) => ({ Component: m.MachineAssetPage })),
  machinePdf: () =>
    import('../features/machine/machine-pages.tsx').then((m) => ({ Component: m.MachinePdfPage })),
  machineError: () =>
    import('../components/device-error-page.tsx').then((m) => ({ Component: m.MachineErrorPage })),
} satisfies Record<string, LazyPage>;

/** A chunk that does not load in 120 s, or at all, shows the new-version notice (01 §8). */
const lazy =
  (page: LazyPage): LazyPage =>
  () =>
    loadChunk(page);

export function createAppRouter(services: Services) {
  const loadSession = services.session;
  let prefetched = false;

  /** Signed-out users go to /login, keeping where they were going (01 §4). */
  async function ensureSession(request: Request): Promise<Session> {
    const user = await services.auth.getUser();
    if (!user) {
      const url = new URL(request.url);
      throw redirect(loginPath(url.pathname + url.search));
    }
    const session = await loadSession();
    if (!prefetched) {
      prefetched = true;
      prefetchWhenIdle(() => sidebarPages(session.access).map((page) => PAGES[page]()));
    }
    return session;
  }

  const profile = routeByPath('/profile');

  const guard =
    (route: AppRoute) =>
    async ({ request, params }: LoaderFunctionArgs) => {
      const { access } = await ensureSession(request);
      if (!canUseRoute(route.permission, access)) {
        // API-only users have no dashboard; their home is the profile page.
        if (route.path === '/' && profile && canUseRoute(profile.permission, access))
          throw redirect('/profile');
        throw redirect(PUBLIC_PATHS.forbidden);
      }
      if (route.redirectTo) throw redirect(generatePath(route.redirectTo, params));
      return null;
    };

  return createBrowserRouter([
    {
      HydrateFallback: FullPageLoader,
      ErrorBoundary: RouteError,
      children: [
        { path: PUBLIC_PATHS.login, Component: LoginPage },
        { path: PUBLIC_PATHS.callback, Component: CallbackPage },
        { path: PUBLIC_PATHS.logout, Component: LogoutPage },
        { path: PUBLIC_PATHS.kioskError, lazy: lazy(DEVICE_PAGES.kioskError) },
        { path: PUBLIC_PATHS.machineError, lazy: lazy(DEVICE_PAGES.machineError) },
        { path: PUBLIC_PATHS.kiosk, lazy: lazy(DEVICE_PAGES.kiosk) },
        { path: PUBLIC_PATHS.machineAsset, lazy: lazy(DEVICE_PAGES.machineAsset) },
        { path: PUBLIC_PATHS.machinePdf, lazy: lazy(DEVICE_PAGES.machinePdf) },
        {
          id: 'shell',
          loader: ({ request }) => ensureSession(request),
          Component: ShellLayout,
          children: [
            {
              // Errors of a page show inside the shell, so the user keeps the header and sidebar.
              ErrorBoundary: RouteError,
              children: [
                { path: PUBLIC_PATHS.forbidden, Component: ForbiddenPage },
                ...APP_ROUTES.map((route) => ({
                  path: route.path,
                  loader: guard(route),
                  handle: { route },
                  // A redirect route's loader always leaves; it still needs something to render.
                  ...(route.redirectTo ? { Component: FullPageLoader } : { lazy: lazy(PAGES[route.page]) }),
                })),
                { path: '*', Component: SomethingWentWrongPage },
              ],
            },
          ],
        },
      ],
    },
  ]);
}
