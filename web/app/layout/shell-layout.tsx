import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { CSSProperties } from 'react';
import { Outlet, useLoaderData } from 'react-router';
import { canSearch, canUseRoute } from '../../../shared/access/route-access.ts';
import { SessionProvider } from '../../lib/app-context.tsx';
import { pickLanguage } from '../../lib/i18n.ts';
import { I18nProvider } from '../../lib/i18n-context.tsx';
import type { Session } from '../../lib/session.ts';
import { useLiveUpdates } from '../../lib/use-live-updates.ts';
import { visibleSidebar } from '../navigation.ts';
import { routeByPath } from '../routes.ts';
import { AnnouncementBanners, NewVersionBox } from './banners.tsx';
import { DemoBanner, Header } from './header.tsx';
import { ProvenanceHost } from './provenance-host.tsx';
import { Sidebar } from './sidebar.tsx';
import { StaffViewBanner } from './staff-view-banner.tsx';

const HEADER_HEIGHT = 56;
const BANNER_HEIGHT = 28;

const may = (path: string, session: Session) => {
  const route = routeByPath(path);
  return route ? canUseRoute(route.permission, session.access) : false;
};

/**
 * The signed-in shell: header, sidebar and the page, laid out with CSS grid (shell.css) rather than
 * Mantine's AppShell to keep the first load small. The session comes from the guard's loader.
 */
export function ShellLayout() {
  const session = useLoaderData() as Session;
  const live = useLiveUpdates();
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const [desktopOpened, { toggle: toggleDesktop }] = useDisclosure(true);
  // One menu toggle: it opens the drawer on small screens and collapses the sidebar on large ones.
  const small = useMediaQuery('(max-width: 48em)') ?? false;
  const isDemo = session.company.settings?.isDemo === true;
  const showBell = may('/notifications', session);
  // Search is for everyone but API-only users (01 §2.3, §6).
  const showSearch = canSearch(session.access);
  // API-only users have no sidebar items: no sidebar and no toggle for it.
  const hasNav = visibleSidebar(session.access).length > 0;
  const navOpen = hasNav && (small ? mobileOpened : desktopOpened);
  const headerHeight = HEADER_HEIGHT + (isDemo ? BANNER_HEIGHT : 0);
  const language = pickLanguage(session.me.settings?.language, navigator.languages);

  return (
    <I18nProvider language={language}>
      <SessionProvider session={session}>
        <div
          className="vf-shell"
          data-nav={navOpen ? 'open' : 'closed'}
          style={{ '--vf-header-height': `${headerHeight}px` } as CSSProperties}
        >
          <header className="vf-header">
            {isDemo && <DemoBanner />}
            <div style={{ height: HEADER_HEIGHT }}>
              <Header
                navOpened={navOpen}
                onToggleNav={hasNav ? (small ? toggleMobile : toggleDesktop) : undefined}
                showBell={showBell}
                showSearch={showSearch}
                live={live}
              />
            </div>
          </header>
          <div className="vf-nav">
            <Sidebar onNavigate={closeMobile} />
          </div>
          {small && mobileOpened && (
            <div className="vf-nav-backdrop" onClick={closeMobile} aria-hidden="true" />
          )}
          <main className="vf-main">
            <StaffViewBanner />
            <AnnouncementBanners />
            <Outlet />
          </main>
          <NewVersionBox />
          <ProvenanceHost />
        </div>
      </SessionProvider>
    </I18nProvider>
  );
}
