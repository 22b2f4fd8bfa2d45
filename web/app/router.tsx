import type { ComponentType } from 'react';
import { createBrowserRouter, generatePath, type LoaderFunctionArgs, redirect } from 'react-router';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { FullPageLoader } from '../components/page-state.tsx';
import type { Services } from '../lib/app-context.tsx';
import { loginPath } from '../lib/login-redirect.ts';
import { createSessionLoader, type Session } from '../lib/session.ts';
import { ShellLayout } from './layout/shell-layout.tsx';
import { CallbackPage } from './pages/callback-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { LogoutPage } from './pages/logout-page.tsx';
import { ForbiddenPage, SomethingWentWrongPage } from './pages/message-pages.tsx';
import { RouteError } from './pages/route-error.tsx';
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
  'not-available': () => import('./pages/message-pages.tsx').then((m) => ({ Component: m.NotAvailablePage })),
};

/** Kiosk and machine views stand outside the signed-in shell and out of its bundle. */
const device =
  (name: keyof typeof import('./pages/device-pages.tsx')): LazyPage =>
  () =>
    import('./pages/device-pages.tsx').then((m) => ({ Component: m[name] }));

export function createAppRouter(services: Services) {
  const loadSession = createSessionLoader({ api: services.api, signOut: services.logOut });

  /** Signed-out users go to /login, keeping where they were going (01 §4). */
  async function ensureSession(request: Request): Promise<Session> {
    const user = await services.auth.getUser();
    if (!user) {
      const url = new URL(request.url);
      throw redirect(loginPath(url.pathname + url.search));
    }
    return loadSession();
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
        { path: PUBLIC_PATHS.kioskError, lazy: device('KioskErrorPage') },
        { path: PUBLIC_PATHS.machineError, lazy: device('MachineErrorPage') },
        { path: PUBLIC_PATHS.kiosk, lazy: device('KioskPage') },
        { path: PUBLIC_PATHS.machineAsset, lazy: device('MachineAssetPage') },
        { path: PUBLIC_PATHS.machinePdf, lazy: device('MachinePdfPage') },
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
                  ...(route.redirectTo ? { Component: FullPageLoader } : { lazy: PAGES[route.page] }),
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
