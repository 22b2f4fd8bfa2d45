import type { HttpRoute } from '../routes.ts';

/**
 * Calls of the web app itself: errors a browser reports (01 §9, sampled by the client) and the signed-in
 * user's own details. Only a person's own session makes them: never an API key, kiosk or machine.
 */
export const CLIENT_ROUTES: readonly HttpRoute[] = [
  {
    method: 'POST',
    path: '/client-errors',
    fn: 'session',
    op: 'clientErrors.report',
    permission: '*',
    sessionOnly: true,
    profile: true,
  },
  {
    method: 'PATCH',
    path: '/users/me',
    fn: 'session',
    op: 'profile.update',
    permission: '*',
    sessionOnly: true,
    profile: true,
  },
];
