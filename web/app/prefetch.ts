import type { AccessSubject } from '../lib/session.ts';
import { visibleSidebar } from './navigation.ts';
import { type PageKey, routeByPath } from './routes.ts';

/** The pages the user's sidebar leads to, following paths that only lead on to a default sub-page. */
export function sidebarPages(access: AccessSubject): PageKey[] {
  const pages = new Set<PageKey>();
  for (const item of visibleSidebar(access).flatMap((s) => s.items)) {
    let route = item.to ? routeByPath(item.to) : undefined;
    if (route?.redirectTo) route = routeByPath(route.redirectTo);
    if (route && !route.redirectTo) pages.add(route.page);
  }
  return [...pages];
}

/**
 * Once the first page has shown and the browser is idle, fetches the chunks of the pages the sidebar
 * offers, so the first visit to each is as quick as a return visit. Failures are left for the visit
 * itself to meet and show.
 */
export function prefetchWhenIdle(load: () => Promise<unknown>[], afterMs = 1000): void {
  const run = () => {
    for (const pending of load()) pending.catch(() => undefined);
  };
  setTimeout(() => {
    if (typeof globalThis.requestIdleCallback === 'function')
      globalThis.requestIdleCallback(run, { timeout: 3000 });
    else run();
  }, afterMs);
}
