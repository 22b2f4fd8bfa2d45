import type { RoutePermission } from '../access/permission-names.ts';

/** Everyone who works with the portfolio; per-item grants narrow what each of them sees. */
export const PORTFOLIO_READERS = [
  'company_user',
  'company_user_full',
  'entity_user',
  'asset_user',
  'account_user',
] as const;
export const COMPANY_USERS = ['company_user', 'company_user_full'] as const;
/** Imports, marketplace and entity import need company_user itself (01 §6). */
export const COMPANY_USER_ONLY = ['company_user'] as const;
export const COMPANY_ADMINS = ['company_admin'] as const;
export const BILLING = ['company_admin', 'bill_validation', 'bill_validation_v2'] as const;
/** No role suffices: staff only, as every route admits admins. */
export const ADMIN_ONLY: RoutePermission = [];
