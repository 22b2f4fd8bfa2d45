/** The permission strings of the specification (01 §6). */
export const PERMISSION_NAMES = [
  'admin',
  'company_owner',
  'company_admin',
  'company_user',
  'company_user_full',
  'entity_user',
  'asset_user',
  'account_user',
  'api_access_only',
  'bill_validation',
  'bill_validation_v2',
  'view_integrations',
  'company_log',
] as const;

export type PermissionName = (typeof PERMISSION_NAMES)[number];

/** '*' lets any signed-in user in; a list needs any one of its permissions; an empty list admits admins only. */
export type RoutePermission = '*' | readonly PermissionName[];

/** Who may list a company's people (and its roles): the browser asks only when the API would answer. */
export const USERS_LIST: readonly PermissionName[] = ['company_owner', 'company_user', 'company_user_full'];

export function isPermissionName(value: string): value is PermissionName {
  return (PERMISSION_NAMES as readonly string[]).includes(value);
}

/** The permission names in a stored list, leaving out anything that is not one (a name since retired). */
export const permissionList = (value: unknown): PermissionName[] =>
  Array.isArray(value)
    ? value.filter((p): p is PermissionName => typeof p === 'string' && isPermissionName(p))
    : [];
