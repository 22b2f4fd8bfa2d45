import type { Caller } from './caller.ts';
import type { RoutePermission } from './permission-names.ts';
import { canCallRoute, staffMayWrite } from './route-access.ts';

/**
 * Which credentials a route accepts: a user's (token or API key) by default; kiosk and machine keys only
 * where named. `feed`: a user's calendar-feed secret in the URL's `token`, for calendar clients, which
 * can neither sign in nor send headers. `link`: a link sent by e-mail whose `token` is all the credential
 * there is (an unsubscribe link works without signing in); the operation judges the token itself.
 */
export type AuthKind = 'user' | 'kiosk' | 'machine' | 'feed' | 'link';

/** The credential a request actually carried. API keys act as their user, so they go wherever user tokens go. */
export type CredentialKind = 'token' | 'apiKey' | 'kiosk' | 'machine' | 'feed' | 'link';

export const DEFAULT_AUTH: readonly AuthKind[] = ['user'];

/** The parts of a route declaration the access rules read. */
export interface RouteRule {
  permission: RoutePermission;
  auth?: readonly AuthKind[];
  /** The path parameter that names a company: only the caller's own, unless an admin calls. */
  companyParam?: string;
  /** Only a signed-in user's own session: never an API key, kiosk or machine (credential management). */
  sessionOnly?: boolean;
  /** A call of the profile page or of signing in and out: all an API-only user's session may make. */
  profile?: boolean;
  op?: string;
  /** Absent: the rule is judged as a read. */
  method?: string;
  path?: string;
}

export function acceptsCredential(route: Pick<RouteRule, 'auth'>, kind: CredentialKind): boolean {
  const auth = route.auth ?? DEFAULT_AUTH;
  return kind === 'token' || kind === 'apiKey' ? auth.includes('user') : auth.includes(kind);
}

export type UnauthorisedCode = 'UNAUTHORISED' | 'INVALID_AUTH' | 'AUTH_ERROR';

/**
 * The code a 401 carries (01 §8): kiosk credentials that are missing or wrong are INVALID_AUTH, a machine
 * key that fails is AUTH_ERROR, a user's token UNAUTHORISED. With no credential at all, the route's own
 * kind decides.
 */
export function unauthorisedCode(
  route: Pick<RouteRule, 'auth'>,
  presented?: CredentialKind,
): UnauthorisedCode {
  if (presented === 'kiosk') return 'INVALID_AUTH';
  if (presented === 'machine') return 'AUTH_ERROR';
  if (presented) return 'UNAUTHORISED';
  const auth = route.auth ?? DEFAULT_AUTH;
  if (auth.includes('user') || auth.includes('feed') || auth.includes('link')) return 'UNAUTHORISED';
  return auth.includes('kiosk') ? 'INVALID_AUTH' : 'AUTH_ERROR';
}

export type RouteDecision =
  | { ok: true }
  | { ok: false; status: 403; reason: string }
  | { ok: false; status: 404; reason: string };

type DecisionCaller = Pick<Caller, 'kind' | 'isAdmin' | 'permissions' | 'grants' | 'companyId'> &
  Pick<Partial<Caller>, 'via' | 'staffView'>;

const FORBIDDEN = 'You do not have permission to do this';
export const STAFF_READ_ONLY =
  'Staff can read another company’s data but not change it. Switch back to your own company to make changes.';

const isWrite = (route: RouteRule) => route.method !== undefined && route.method !== 'GET';

/**
 * Everything about a request that can be judged without reading data: the credential kind, the route's
 * permission, the profile-only rule and search for API-only users, and a company named in the path. Checks run in that order, so a
 * caller without the route's permission learns nothing about which ids exist.
 */
export function routeDecision(
  route: RouteRule,
  caller: DecisionCaller,
  params: Readonly<Record<string, string>>,
): RouteDecision {
  const auth = route.auth ?? DEFAULT_AUTH;
  if (caller.via === 'link') {
    // A link's bearer holds no permissions: a route that takes links is open to them, and to nothing else.
    if (!auth.includes('link')) return { ok: false, status: 403, reason: FORBIDDEN };
    return { ok: true };
  }
  if (caller.kind === 'kiosk') {
    // A kiosk holds no user permissions: a route that names kiosks is open to them, within their company.
    if (!auth.includes('kiosk')) return { ok: false, status: 403, reason: FORBIDDEN };
  } else {
    if (caller.kind === 'machine' && !auth.includes('machine')) {
      return { ok: false, status: 403, reason: FORBIDDEN };
    }
    if (route.sessionOnly && (caller.kind !== 'user' || caller.via === 'apiKey')) {
      return { ok: false, status: 403, reason: 'This needs a signed-in session' };
    }
    if (!canCallRoute(route, caller)) return { ok: false, status: 403, reason: FORBIDDEN };
  }
  // The asset tool opens another company's site read-only (and the look is logged): staff read there.
  if (caller.staffView === true && isWrite(route) && !staffMayWrite(route)) {
    return { ok: false, status: 403, reason: STAFF_READ_ONLY };
  }
  if (route.companyParam) {
    const named = params[route.companyParam];
    if (named !== caller.companyId) {
      if (!caller.isAdmin) return { ok: false, status: 404, reason: 'Not found' };
      if (isWrite(route) && !staffMayWrite(route)) return { ok: false, status: 403, reason: STAFF_READ_ONLY };
    }
  }
  return { ok: true };
}
