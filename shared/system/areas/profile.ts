import type { PermissionName } from '../../access/permission-names.ts';
import type { AuthKind } from '../../access/route-rules.ts';
import { notificationsQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const route = routesOf('session');
const OWN = { sessionOnly: true, profile: true } as const;

/**
 * Calls of the web app itself: errors a browser reports (01 §9, sampled by the client) and the signed-in
 * user's own details. Only a person's own session makes them: never an API key, kiosk or machine.
 */
const CLIENT_ROUTES: readonly HttpRoute[] = [
  route('POST', '/client-errors', 'clientErrors.report', '*', OWN),
  route('PATCH', '/users/me', 'profile.update', '*', OWN),
];

const USER_OR_MACHINE: readonly AuthKind[] = ['user', 'machine'];
const COMPANY_ADMIN: readonly PermissionName[] = ['company_admin'];
const PROFILE = { profile: true } as const;

/** Session calls of 01 §7 and 02 §7 (users). */
const SESSION_ROUTES: readonly HttpRoute[] = [
  {
    method: 'GET',
    path: '/users/me',
    fn: 'session',
    op: 'me',
    permission: '*',
    auth: USER_OR_MACHINE,
    profile: true,
  },
  {
    method: 'GET',
    path: '/users/me/company',
    fn: 'session',
    op: 'myCompany',
    permission: '*',
    auth: USER_OR_MACHINE,
    profile: true,
  },
  {
    method: 'GET',
    path: '/users/me/permissions',
    fn: 'session',
    op: 'myPermissions',
    permission: '*',
    auth: USER_OR_MACHINE,
    profile: true,
  },
  { method: 'GET', path: '/users/me/companies', fn: 'session', op: 'myCompanies', permission: '*' },
  { method: 'GET', path: '/users/me/notifications', fn: 'session', op: 'myNotifications', permission: '*' },
  {
    method: 'POST',
    path: '/users/me/seen-notification',
    fn: 'session',
    op: 'seenNotification',
    permission: '*',
  },
  { method: 'DELETE', path: '/sessions', fn: 'session', op: 'endSession', permission: '*', profile: true },
  { method: 'PUT', path: '/users/{userSub}/company-id', fn: 'session', op: 'switchCompany', permission: '*' },
];

/** The signed-in user's own API access and second factor (02 §7 users; the profile page). */
const ACCOUNT_ROUTES: readonly HttpRoute[] = [
  route('POST', '/users/me/api-setup', 'apiSetup', '*', OWN),
  route('POST', '/users/me/api-key', 'apiKey', '*', OWN),
  route('GET', '/users/me/api-usage', 'apiUsage', '*', PROFILE),
  route('GET', '/users/me/mfa', 'mfaStatus', '*', OWN),
  route('POST', '/users/me/mfa/totp', 'totpStart', '*', OWN),
  route('POST', '/users/me/mfa/totp/verify', 'totpVerify', '*', OWN),
  route('DELETE', '/users/me/mfa/totp', 'totpDisable', '*', OWN),
  // A company's members are changed only through the user administration, which also keeps identities.
  route('POST', '/users', 'companyUsers.create', COMPANY_ADMIN),
  route('PATCH', '/users/{id}', 'companyUsers.update', COMPANY_ADMIN),
  route('DELETE', '/users/{id}', 'companyUsers.delete', COMPANY_ADMIN),
];

/** The signed-in user: session, profile, second factor, API access and client errors. */
export const PROFILE_AREA: AreaDecl = {
  name: 'profile',
  routes: withQueries([...SESSION_ROUTES, ...ACCOUNT_ROUTES, ...CLIENT_ROUTES], {
    'GET /users/me/notifications': notificationsQuery,
  }),
};
