import type { ComponentType } from 'react';
import { createBrowserRouter, generatePath, type LoaderFunctionArgs, redirect } from 'react-router';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { FullPageLoader } from '../components/page-state.tsx';
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

/**
 * The dashboard, where every signed-in user lands, loads with the shell. Every other page is reached through
 * the table of page loaders, itself a chunk fetched on the first visit to such a page (or when the browser
 * is idle), so the shell does not carry a loader for each of the many pages of every area.
 */
const dashboardPage: LazyPage = () =>
  import('../features/dashboard/dashboard-page.tsx').then((m) => ({ Component: m.DashboardPage }));

function pageLoader(page: PageKey): LazyPage {
  if (page === 'dashboard') return dashboardPage;
  return () => import('./page-loaders.ts').then((m) => m.PAGE_LOADERS[page]());
}

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
      prefetchWhenIdle(() => sidebarPages(session.access).map((page) => pageLoader(page)()));
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
                  ...(route.redirectTo
                    ? { Component: FullPageLoader }
                    : { lazy: lazy(pageLoader(route.page)) }),
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
