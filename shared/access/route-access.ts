import type { Grants } from '../schemas/company.ts';
import type { Caller } from './caller.ts';
import type { PermissionName, RoutePermission } from './permission-names.ts';

const hasAny = (list: { read: readonly string[]; write: readonly string[] }) =>
  list.read.length > 0 || list.write.length > 0;

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

/** '*' admits any signed-in caller; a list admits holders of any one; admins pass every route; no list denies. */
export function canUseRoute(
  permission: RoutePermission,
  caller: Pick<Caller, 'isAdmin' | 'permissions' | 'grants'>,
) {
  if (caller.isAdmin) return true;
  if (permission === '*') return true;
  const held = derivePermissions(caller.permissions, caller.grants);
  // API-only users reach their own profile ('*' routes) and nothing else through the app.
  if (held.has('api_access_only')) return false;
  return permission.some((p) => held.has(p));
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
