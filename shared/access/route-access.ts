import type { Grants } from '../schemas/company.ts';
import type { Caller } from './caller.ts';
import type { PermissionName, RoutePermission } from './permission-names.ts';

const hasAny = (list: { read: readonly string[]; write: readonly string[] }) =>
  list.read.length > 0 || list.write.length > 0;

/** What the route rules need to know about a caller; `via` is absent in the browser. */
export type AccessSubject = Pick<Caller, 'isAdmin' | 'permissions' | 'grants'> &
  Pick<Partial<Caller>, 'via' | 'staffView'>;

/** The permissions a caller holds once the derivation rules of 01 §6 are applied. */
export function derivePermissions(
  permissions: readonly PermissionName[],
  grants: Grants,
): Set<PermissionName> {
  const out = new Set<PermissionName>(permissions);
  if (out.has('company_user') || out.has('company_admin')) {
    for (const p of ['company_user', 'entity_user', 'asset_user', 'account_user'] as const) out.add(p);
  } else if (hasAny(grants.entities)) {
    for (const p of ['entity_user', 'asset_user', 'account_user'] as const) out.add(p);
  }
  if (hasAny(grants.assets)) {
    out.add('asset_user');
    out.add('account_user');
  }
  if (hasAny(grants.accounts)) out.add('account_user');
  return out;
}

/**
 * API-only users reach their profile and nothing else through the application; an API key is the one
 * way they are meant to use, so calls made with their key are judged by their other permissions.
 */
export function isApiOnly(subject: Pick<AccessSubject, 'isAdmin' | 'permissions' | 'via'>): boolean {
  return !subject.isAdmin && subject.via !== 'apiKey' && subject.permissions.includes('api_access_only');
}

/** '*' admits any signed-in caller; a list admits holders of any one; admins pass every route; no list denies. */
export function canUseRoute(permission: RoutePermission, caller: AccessSubject): boolean {
  if (caller.isAdmin) return true;
  if (permission === '*') return true;
  if (isApiOnly(caller)) return false;
  const held = derivePermissions(caller.permissions, caller.grants);
  return permission.some((p) => held.has(p));
}

/**
 * The writes staff may still make while looking into a company they are not a member of: the staff-only
 * calls (routes open to admins alone: product settings, e-mails, companies, suppliers, templates), calls
 * on their own account ('*': profile, sign-out, company switch, their notifications), and the company's
 * kiosk displays, which staff set up from /admin/kiosks. Every other write would change the company's
 * own data, which the look is not for.
 */
const STAFF_VIEW_WRITE_PATHS = [
  '/kiosks',
  // POSTs that only read, because what they send is too large or too structured for a query string.
  '/assets/wizard-check',
  '/report-templates/preview',
  // Support's way to let a locked-out user in: a fresh temporary password, which changes no company data.
  '/companies/{id}/users/{userSub}/welcome-email',
] as const;

export function staffMayWrite(route: { permission: RoutePermission; path?: string }): boolean {
  if (route.permission === '*' || route.permission.length === 0) return true;
  const path = route.path ?? '';
  return STAFF_VIEW_WRITE_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

/**
 * Whether the browser offers a change guarded by `permission`: as `canUseRoute`, but never to staff
 * looking into another company, whose writes there the API refuses.
 */
export function canChange(permission: RoutePermission, caller: AccessSubject): boolean {
  return caller.staffView !== true && canUseRoute(permission, caller);
}

/** Global and list search: everyone but API-only users (01 §6). */
export function canSearch(caller: AccessSubject): boolean {
  return !isApiOnly(caller);
}

/** What the API-only rule needs to know about a call. */
export interface CallRule {
  permission: RoutePermission;
  /** A call of the profile page or of signing in and out. */
  profile?: boolean;
  op?: string;
}

/**
 * Whether the caller may make an API call: the route's permission, search, and for an API-only user's
 * session the profile page's calls only ('*' routes included: suppliers, notifications or a company
 * switch are the application's, not the profile's). With their API key they act on their other
 * permissions like anyone else.
 */
export function canCallRoute(route: CallRule, caller: AccessSubject): boolean {
  if (isApiOnly(caller) && route.profile !== true) return false;
  if (!canUseRoute(route.permission, caller)) return false;
  return route.op !== 'generic.search' || canSearch(caller);
}

/** Company users (and admins) bypass per-item checks (02 §6). */
export function isCompanyWide(caller: Pick<Caller, 'isAdmin' | 'permissions'>): boolean {
  return (
    caller.isAdmin ||
    caller.permissions.includes('company_user') ||
    caller.permissions.includes('company_admin') ||
    caller.permissions.includes('company_owner') ||
    caller.permissions.includes('company_user_full')
  );
}

/** Role names in the identity claims that start with 'entity' mark an entity-group user (01 §6). */
export function isEntityGroupUser(roles: readonly string[]): boolean {
  return roles.some((r) => r.startsWith('entity'));
}

/** The Company Settings link: company owners and admins (01 §6). */
export function canSeeCompanySettings(caller: Pick<Caller, 'isAdmin' | 'permissions'>): boolean {
  return caller.isAdmin || caller.permissions.includes('company_owner');
}
