/**
 * Slows password and code guessing without letting anyone lock a person out. Failures count per e-mail
 * address and client IP together: past a few, that client waits before its next try, twice as long after
 * each further failure. A person signing in from elsewhere is not held up by someone guessing their
 * password. Every client IP also has a budget of tries a minute, whatever the addresses, so one client
 * cannot walk through many accounts. Cognito does the same in AWS (its own lockout and throttling).
 */

/** Failures a client may make on one address before it has to wait. */
export const FREE_FAILURES = 5;
/** The first wait; each further failure doubles it, up to `MAX_WAIT_MS`. */
export const FIRST_WAIT_MS = 1_000;
export const MAX_WAIT_MS = 15 * 60_000;
/** Failures older than this are forgotten. */
export const FAILURE_MEMORY_MS = 15 * 60_000;
/** Sign-in tries (right or wrong, any address) one client IP may make a minute. */
export const TRIES_PER_IP_PER_MINUTE = 60;
const MINUTE_MS = 60_000;

interface Failures {
  count: number;
  last: number;
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterMs: number };

export function createSignInThrottle(now: () => number = Date.now) {
  const failures = new Map<string, Failures>();
  const tries = new Map<string, number[]>();
  const keyOf = (email: string, ip: string) => `${ip}\n${email.trim().toLowerCase()}`;

  const waitFor = (f: Failures | undefined): number => {
    if (!f || f.count < FREE_FAILURES) return 0;
    const wait = Math.min(FIRST_WAIT_MS * 2 ** (f.count - FREE_FAILURES), MAX_WAIT_MS);
    return Math.max(0, f.last + wait - now());
  };

  const forgetOld = () => {
    // Bounded memory: what no longer matters is dropped as the maps are used.
    const t = now();
    for (const [key, f] of failures) if (t - f.last > FAILURE_MEMORY_MS) failures.delete(key);
    for (const [ip, times] of tries) {
      const recent = times.filter((at) => t - at < MINUTE_MS);
      if (recent.length === 0) tries.delete(ip);
      else tries.set(ip, recent);
    }
  };

  return {
    /** Whether this client may try this address now; a try that is allowed counts against the IP's budget. */
    attempt(email: string, ip: string): Verdict {
      forgetOld();
      const t = now();
      const recent = tries.get(ip) ?? [];
      if (recent.length >= TRIES_PER_IP_PER_MINUTE) {
        return { allowed: false, retryAfterMs: Math.max(1, (recent[0] ?? t) + MINUTE_MS - t) };
      }
      const wait = waitFor(failures.get(keyOf(email, ip)));
      if (wait > 0) return { allowed: false, retryAfterMs: wait };
      tries.set(ip, [...recent, t]);
      return { allowed: true };
    },
    fail(email: string, ip: string): void {
      const key = keyOf(email, ip);
      const before = failures.get(key);
      failures.set(key, { count: (before?.count ?? 0) + 1, last: now() });
    },
    succeed(email: string, ip: string): void {
      failures.delete(keyOf(email, ip));
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
