import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new random secret: 32 bytes, base64url (43 characters). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a secret, hex. Secrets here are random and long, so a fast hash is enough to store them. */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Whether a presented secret matches a stored digest. Both sides are hashed to equal-length digests and
 * compared in constant time, so neither the length nor the content of the secret leaks through timing.
 */
export function secretMatches(presented: string, storedDigest: string | undefined): boolean {
  const got = createHash('sha256').update(presented, 'utf8').digest();
  const want = Buffer.from(typeof storedDigest === 'string' ? storedDigest : '', 'hex');
  if (want.length !== got.length) {
    // Still spend the comparison, so a missing record takes as long as a wrong secret.
    timingSafeEqual(got, got);
    return false;
  }
  return timingSafeEqual(got, want);
}
