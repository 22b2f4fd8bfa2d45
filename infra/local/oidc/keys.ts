import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'oidc-provider';

export interface ProviderKeys {
  /** Private signing keys (RS256) in JWK form. */
  jwks: { keys: JWK[] };
  /** Secrets that sign the provider's cookies. */
  cookieKeys: string[];
}

function generate(): ProviderKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' } as JWK;
  return { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
}

/**
 * The signing key and cookie secrets, made once and kept in `<stateDir>/oidc/keys.json`: tokens and
 * browser sessions issued before a restart stay valid after it.
 */
export function loadOrCreateKeys(stateDir: string): ProviderKeys {
  const dir = join(stateDir, 'oidc');
  const file = join(dir, 'keys.json');
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as ProviderKeys;
    if (stored.jwks?.keys?.length && stored.cookieKeys?.length) return stored;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const keys = generate();
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return keys;
}
