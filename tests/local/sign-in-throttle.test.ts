import { describe, expect, it } from 'vitest';
import {
  createSignInThrottle,
  FIRST_WAIT_MS,
  FREE_FAILURES,
  MAX_WAIT_MS,
  TRIES_PER_IP_PER_MINUTE,
} from '../../infra/local/oidc/sign-in-throttle.ts';

const ALICE = 'alice@demo.test';

function clock() {
  let t = 1_000_000;
  return { now: () => t, pass: (ms: number) => (t += ms) };
}

/** `n` wrong passwords for the address from the IP, each allowed. */
function guess(throttle: ReturnType<typeof createSignInThrottle>, ip: string, n: number) {
  for (let i = 0; i < n; i++) {
    expect(throttle.attempt(ALICE, ip)).toEqual({ allowed: true });
    throttle.fail(ALICE, ip);
  }
}

describe('the sign-in throttle', () => {
  it('holds up the guessing client, not the person signing in from elsewhere', () => {
    const c = clock();
    const throttle = createSignInThrottle(c.now);
    guess(throttle, '203.0.113.9', FREE_FAILURES);
    expect(throttle.attempt(ALICE, '203.0.113.9')).toEqual({ allowed: false, retryAfterMs: FIRST_WAIT_MS });
    // Alice, at her own desk, with the right password.
    expect(throttle.attempt(ALICE, '198.51.100.7')).toEqual({ allowed: true });
    // The address case and spaces do not make a new count.
    expect(throttle.attempt(' ALICE@demo.test ', '203.0.113.9').allowed).toBe(false);
  });

  it('doubles the wait after each further failure, up to a ceiling, and forgets after success', () => {
    const c = clock();
    const throttle = createSignInThrottle(c.now);
    guess(throttle, '203.0.113.9', FREE_FAILURES);
    let wait = FIRST_WAIT_MS;
    for (let i = 0; i < 20; i++) {
      const verdict = throttle.attempt(ALICE, '203.0.113.9');
      expect(verdict).toEqual({ allowed: false, retryAfterMs: Math.min(wait, MAX_WAIT_MS) });
      c.pass(Math.min(wait, MAX_WAIT_MS));
      expect(throttle.attempt(ALICE, '203.0.113.9')).toEqual({ allowed: true });
      throttle.fail(ALICE, '203.0.113.9');
      wait *= 2;
    }
    c.pass(MAX_WAIT_MS);
    expect(throttle.attempt(ALICE, '203.0.113.9').allowed).toBe(true);
    throttle.succeed(ALICE, '203.0.113.9');
    guess(throttle, '203.0.113.9', FREE_FAILURES);
  });

  it('limits the tries of one IP a minute over any addresses', () => {
    const c = clock();
    const throttle = createSignInThrottle(c.now);
    for (let i = 0; i < TRIES_PER_IP_PER_MINUTE; i++)
      expect(throttle.attempt(`person-${i}@demo.test`, '203.0.113.9').allowed).toBe(true);
    const refused = throttle.attempt('another@demo.test', '203.0.113.9');
    expect(refused.allowed).toBe(false);
    expect(throttle.attempt('another@demo.test', '198.51.100.7').allowed).toBe(true);
    c.pass(60_000);
    expect(throttle.attempt('another@demo.test', '203.0.113.9').allowed).toBe(true);
  });
});
