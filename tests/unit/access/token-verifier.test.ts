import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { Jwks } from 'aws-jwt-verify/jwk';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, rememberingVerified } from '../../../functions/core/adapters/token-verifier.ts';

/**
 * The Cognito configuration of the token check, offline: tokens shaped as the user pool issues them,
 * signed by a local key whose JWKS is handed to the verifier instead of being fetched from AWS.
 */
const POOL = 'eu-west-2_AbCdEf123';
const OTHER_POOL = 'eu-west-2_ZyXwVu987';
const CLIENT = '4example0client0id0abcdefg';
const KID = 'cognito-test-key';

const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const pool = keyPair();
const stranger = keyPair();
const jwks = {
  keys: [{ ...pool.publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'RS256' }],
} as Jwks;

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

function signed(claims: Record<string, unknown>, key: KeyObject = pool.privateKey): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', kid: KID }));
  const body = b64url(JSON.stringify(claims));
  return `${head}.${body}.${b64url(sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key))}`;
}

const now = () => Math.floor(Date.now() / 1000);
const issuerOf = (poolId: string) => `https://cognito-idp.eu-west-2.amazonaws.com/${poolId}`;

/** An access token as Cognito issues it to the web client. */
const accessClaims = (extra: Record<string, unknown> = {}) => ({
  sub: 'b1f0c6a2-0000-4000-8000-000000000001',
  iss: issuerOf(POOL),
  client_id: CLIENT,
  token_use: 'access',
  scope: 'openid email',
  'cognito:groups': ['entity viewers'],
  auth_time: now() - 10,
  iat: now() - 10,
  exp: now() + 3600,
  jti: 'a-token-id',
  username: 'b1f0c6a2-0000-4000-8000-000000000001',
  ...extra,
});

const verifier = createTokenVerifier({ provider: 'cognito', userPoolId: POOL, clientId: CLIENT }, { jwks });

describe('Cognito access tokens', () => {
  it('accepts an access token of the pool for the web client, with its groups', async () => {
    const claims = accessClaims();
    await expect(verifier.verify(signed(claims))).resolves.toEqual({
      sub: 'b1f0c6a2-0000-4000-8000-000000000001',
      groups: ['entity viewers'],
      // When it was issued, so a token from before the user signed out can be refused.
      issuedAt: claims.iat,
    });
  });

  it('refuses an ID token, even one issued to the same client', async () => {
    const { client_id: _c, scope: _s, ...rest } = accessClaims({ token_use: 'id' });
    const idToken = signed({ ...rest, aud: CLIENT, email: 'owner@demo.test' });
    await expect(verifier.verify(idToken)).rejects.toThrow(/token use/i);
  });

  it('refuses a token issued to another app client', async () => {
    await expect(verifier.verify(signed(accessClaims({ client_id: 'another-client' })))).rejects.toThrow(
      /client/i,
    );
  });

  it('refuses a token of another user pool', async () => {
    await expect(verifier.verify(signed(accessClaims({ iss: issuerOf(OTHER_POOL) })))).rejects.toThrow(
      /issuer/i,
    );
  });

  it('refuses an expired token and one signed by a key the pool does not publish', async () => {
    await expect(verifier.verify(signed(accessClaims({ exp: now() - 60 })))).rejects.toThrow(/expired/i);
    await expect(verifier.verify(signed(accessClaims(), stranger.privateKey))).rejects.toThrow(/signature/i);
  });
});

describe('tokens remembered by a warm function', () => {
  it('checks a token once, then answers from memory until it expires, and checks it again after', async () => {
    let clock = 1_000_000_000_000;
    const checked: string[] = [];
    const remembering = rememberingVerified(
      async (token) => {
        checked.push(token);
        if (clock >= 1_000_000_600_000) throw new Error('Token expired');
        return { sub: 'user-1', groups: ['staff'], expiresAt: 1_000_000_600 };
      },
      () => clock,
    );
    await expect(remembering.verify('t1')).resolves.toEqual({ sub: 'user-1', groups: ['staff'] });
    clock += 599_000;
    await expect(remembering.verify('t1')).resolves.toEqual({ sub: 'user-1', groups: ['staff'] });
    expect(checked).toEqual(['t1']);
    clock += 1_000;
    await expect(remembering.verify('t1')).rejects.toThrow(/expired/);
    expect(checked).toEqual(['t1', 't1']);
  });

  it('never remembers a refused token, and a caller cannot change what is remembered', async () => {
    let calls = 0;
    const remembering = rememberingVerified(async (token) => {
      calls++;
      if (token === 'bad') throw new Error('Invalid signature');
      return { sub: 'user-2', groups: ['a'], expiresAt: Date.now() / 1000 + 60 };
    });
    await expect(remembering.verify('bad')).rejects.toThrow(/signature/);
    await expect(remembering.verify('bad')).rejects.toThrow(/signature/);
    expect(calls).toBe(2);
    const first = await remembering.verify('good');
    first.groups.push('admin');
    await expect(remembering.verify('good')).resolves.toEqual({ sub: 'user-2', groups: ['a'] });
  });

  it('refuses a signed token that carries no expiry', async () => {
    const { exp: _e, ...rest } = accessClaims();
    await expect(verifier.verify(signed(rest))).rejects.toThrow();
  });
});
