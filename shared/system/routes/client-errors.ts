import type { HttpRoute } from '../routes.ts';
import { routesOf } from './route-builder.ts';

const route = routesOf('session');
const OWN = { sessionOnly: true, profile: true } as const;

/**
 * Calls of the web app itself: errors a browser reports (01 §9, sampled by the client) and the signed-in
 * user's own details. Only a person's own session makes them: never an API key, kiosk or machine.
 */
export const CLIENT_ROUTES: readonly HttpRoute[] = [
  route('POST', '/client-errors', 'clientErrors.report', '*', OWN),
  route('PATCH', '/users/me', 'profile.update', '*', OWN),
];
