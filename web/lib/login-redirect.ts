import { LOGIN_REDIRECT_DELAY_MS } from '../../shared/constants.ts';

/** Pages that must never be the place a user is sent back to after signing in. */
const AUTH_PATHS = ['/login', '/logout', '/auth/callback'];

/**
 * A path inside this app to return to after sign-in. Anything else (other origins, `//host`,
 * `javascript:`) falls back to the dashboard so the sign-in flow cannot be used as an open redirect.
 */
export function safeReturnUrl(raw: string | null | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  const path = raw.split(/[?#]/)[0] ?? '/';
  if (AUTH_PATHS.includes(path.replace(/\/+$/, '') || '/')) return '/';
  return raw;
}

/** The /login address that brings the user back to `returnUrl` once signed in. */
export function loginPath(returnUrl: string): string {
  const safe = safeReturnUrl(returnUrl);
  return safe === '/' ? '/login' : `/login?returnUrl=${encodeURIComponent(safe)}`;
}

/** Starts the /login countdown; the returned function cancels it (the page was left first). */
export function scheduleLoginRedirect(redirect: () => void, delayMs = LOGIN_REDIRECT_DELAY_MS): () => void {
  const timer = setTimeout(redirect, delayMs);
  return () => clearTimeout(timer);
}
