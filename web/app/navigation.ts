import type { RoutePermission } from '../../shared/access/permission-names.ts';
import { canUseRoute } from '../../shared/access/route-access.ts';
import type { AccessSubject } from '../lib/session.ts';
import { APP_ROUTES, type AppRoute, routeByPath } from './routes.ts';

export interface NavItem {
  label: string;
  /** Where the item leads; null for items shown disabled. */
  to: string | null;
  permission: RoutePermission;
  disabled?: boolean;
}

export interface NavSection {
  /** null for the untitled first section (Dashboard). */
  title: string | null;
  items: NavItem[];
}

function link(label: string, to: string): NavItem {
  const target = routeByPath(to);
  if (!target) throw new Error(`The sidebar links to ${to}, which is not a route`);
  return { label, to, permission: target.permission };
}

/**
 * The one item a path shows as current: the most specific whose target the path is or lies under, so
 * /invoice-validation/invoice-captures is Bill Validation BETA's and not Bill Validation's as well.
 */
export function activeTarget(sections: readonly NavSection[], pathname: string): string | undefined {
  let best: string | undefined;
  for (const item of sections.flatMap((s) => s.items)) {
    const to = item.to;
    if (!to) continue;
    const hit = to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
    if (hit && (best === undefined || to.length > best.length)) best = to;
  }
  return best;
}

/** The sidebar of 01 §2.3, each item carrying the permission of the route it leads to. */
export const SIDEBAR: readonly NavSection[] = [
  { title: null, items: [link('Dashboard', '/')] },
  {
    title: 'Management',
    items: [
      link('Sites', '/assets'),
      link('Portfolios', '/portfolios'),
      link('Entities', '/entities'),
      link('Import Data', '/imports'),
    ],
  },
  {
    title: 'Tools',
    items: [
      link('Bill Validation', '/invoice-validation'),
      link('Bill Validation BETA', '/invoice-validation/invoice-captures'),
      // Shown but not usable: data coverage has no page in this version.
      {
        label: 'Data Coverage',
        to: null,
        permission: routeByPath('/assets')?.permission ?? [],
        disabled: true,
      },
    ],
  },
  {
    title: 'Insights',
    items: [
      link('Consumption', '/analytics/consumption'),
      link('Emissions', '/analytics/emissions'),
      link('Costs', '/analytics/costs'),
      link('Benchmarks', '/benchmarks'),
      // Not in 01 §2.3, whose targets were for admins only: the way to the targets pages.
      link('Targets', '/targets'),
      link('Reports', '/reports'),
    ],
  },
  { title: 'Automation', items: [link('Connectors', '/connectors'), link('Integrations', '/automation')] },
  {
    title: 'Company admin',
    items: [
      link('Users', '/company/users'),
      link('Settings', '/company/manage'),
      link('Activity Log', '/company/log'),
    ],
  },
  { title: 'Admin', items: [link('Admin Overview', '/admin'), link('Suppliers', '/suppliers')] },
];

/** The sidebar as this user sees it: items they may not use are hidden, and so are emptied sections. */
export function visibleSidebar(
  access: AccessSubject,
  sidebar: readonly NavSection[] = SIDEBAR,
): NavSection[] {
  return sidebar
    .map((section) => ({ ...section, items: section.items.filter((i) => canUseRoute(i.permission, access)) }))
    .filter((section) => section.items.length > 0);
}

export function visibleRoutes(access: AccessSubject): AppRoute[] {
  return APP_ROUTES.filter((r) => canUseRoute(r.permission, access));
}
