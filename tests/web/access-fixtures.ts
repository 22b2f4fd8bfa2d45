import type { AccessSubject } from '../../web/lib/session.ts';

const none = { read: [], write: [] };
const grants = (overrides: Partial<AccessSubject['grants']> = {}): AccessSubject['grants'] => ({
  entities: none,
  assets: none,
  accounts: none,
  ...overrides,
});

export const ADMIN: AccessSubject = { isAdmin: true, permissions: ['admin'], grants: grants() };
export const OWNER: AccessSubject = {
  isAdmin: false,
  permissions: ['company_owner', 'company_admin'],
  grants: grants(),
};
export const COMPANY_USER: AccessSubject = {
  isAdmin: false,
  permissions: ['company_user'],
  grants: grants(),
};
/** Read and write grants on two assets and nothing else (like asset@demo.test). */
export const ASSET_ONLY: AccessSubject = {
  isAdmin: false,
  permissions: [],
  grants: grants({ assets: { read: ['a1', 'a2'], write: ['a1', 'a2'] } }),
};
export const API_ONLY: AccessSubject = { isAdmin: false, permissions: ['api_access_only'], grants: grants() };
export const VALIDATOR: AccessSubject = {
  isAdmin: false,
  permissions: ['bill_validation'],
  grants: grants({ assets: { read: ['a1'], write: [] } }),
};
export const INTEGRATIONS_VIEWER: AccessSubject = {
  isAdmin: false,
  permissions: ['view_integrations', 'company_log'],
  grants: grants(),
};
