import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * A token bucket per caller in front of the API functions: a steady rate with room for a burst, and 429
 * with Retry-After past it. In AWS the API stage has a rate and burst for all callers together
 * (API_STAGE_THROTTLE in infra/cdk/stacks/api-stack.ts); locally one developer's script hammering the API
 * meets the same answer a flood would in AWS.
 */
export const CALLER_RATE_PER_SECOND = 100;
export const CALLER_BURST = 200;
/** A bucket left alone this long is full again, so it is dropped. */
const IDLE_MS = ((CALLER_BURST / CALLER_RATE_PER_SECOND) * 1000) | 0;

interface Bucket {
  tokens: number;
  at: number;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-key', 'x-kiosk-key'];

/**
 * Who is calling, for the bucket: the credential the call carries (hashed: the key must not hold it),
 * else the client IP. A credential cannot be forged into someone else's bucket, as a claimed user id could.
 */
export function callerKey(req: IncomingMessage): string {
  for (const name of CREDENTIAL_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string' && value !== '') {
      return `credential:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;
    }
  }
  return `ip:${(req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '')}`;
}

export function createApiThrottle(opts: { ratePerSecond?: number; burst?: number; now?: () => number } = {}) {
  const rate = opts.ratePerSecond ?? CALLER_RATE_PER_SECOND;
  const burst = opts.burst ?? CALLER_BURST;
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  let sweptAt = now();

  return {
    take(key: string): ThrottleVerdict {
      const t = now();
      if (t - sweptAt > IDLE_MS) {
        for (const [k, b] of buckets) if (t - b.at > IDLE_MS) buckets.delete(k);
        sweptAt = t;
      }
      const before = buckets.get(key);
      const tokens = before ? Math.min(burst, before.tokens + ((t - before.at) / 1000) * rate) : burst;
      if (tokens < 1) {
        buckets.set(key, { tokens, at: t });
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) };
      }
      buckets.set(key, { tokens: tokens - 1, at: t });
      return { allowed: true };
    },
  };
}

export type ApiThrottle = ReturnType<typeof createApiThrottle>;
