/**
 * The shapes of the credentials a request can carry besides a user's token (01 §5, §7): a kiosk's
 * `id:secret`, a machine's `id:key` and an API key. Parsing only: whether a secret is right is the server's.
 */
export interface IdSecret {
  id: string;
  secret: string;
}

const PART = /^[A-Za-z0-9_-]{1,200}$/;

/** `id:secret`, both present and made of URL-safe characters; anything else is malformed (INVALID_AUTH). */
export function parseIdSecret(raw: string | undefined | null): IdSecret | undefined {
  if (!raw) return undefined;
  const at = raw.indexOf(':');
  if (at <= 0) return undefined;
  const id = raw.slice(0, at).trim();
  const secret = raw.slice(at + 1).trim();
  return PART.test(id) && PART.test(secret) ? { id, secret } : undefined;
}

/** API keys read `vfk.<public prefix>.<secret>`: the prefix finds the stored key, the secret proves it. */
export const API_KEY_SCHEME = 'vfk';

export interface ParsedApiKey {
  prefix: string;
  secret: string;
}

export function formatApiKey(prefix: string, secret: string): string {
  return `${API_KEY_SCHEME}.${prefix}.${secret}`;
}

export function parseApiKey(raw: string | undefined | null): ParsedApiKey | undefined {
  if (!raw) return undefined;
  const parts = raw.trim().split('.');
  if (parts.length !== 3 || parts[0] !== API_KEY_SCHEME) return undefined;
  const [, prefix = '', secret = ''] = parts;
  return PART.test(prefix) && PART.test(secret) ? { prefix, secret } : undefined;
}

/** The part of a key that may be shown again after it was issued. */
export function publicPartOf(key: ParsedApiKey): string {
  return `${API_KEY_SCHEME}.${key.prefix}`;
}
