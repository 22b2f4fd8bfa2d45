import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { type Jwks, SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { type AuthConfig, config } from '../config.ts';

export interface VerifiedToken {
  sub: string;
  /** Cognito group names or provider role claims. */
  groups: string[];
  /** When the token was issued (`iat`, seconds): a token from before its user ended their sessions is refused. */
  issuedAt?: number;
}

export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

/** Fetches keys over http as well as https: the local provider is served on http://localhost. */
const anyProtocolFetcher = {
  async fetch(uri: string): Promise<ArrayBuffer> {
    const res = await fetch(uri, { signal: AbortSignal.timeout(3000) });
    if (!res.ok) throw new Error(`JWKS fetch failed with ${res.status}`);
    return res.arrayBuffer();
  },
};

const verifiedOf = (v: VerifiedToken): VerifiedToken => ({
  sub: v.sub,
  groups: [...v.groups],
  ...(v.issuedAt === undefined ? {} : { issuedAt: v.issuedAt }),
});

const issuedAtOf = (payload: { iat?: unknown }): { issuedAt?: number } =>
  typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {};

/** Tokens a warm function has seen lately; beyond this many the oldest are verified afresh. */
const REMEMBERED_TOKENS = 500;

/**
 * Remembers tokens that passed, until they expire: a browser sends the same access token with every call
 * for up to an hour, and checking its signature each time is most of the cost of authentication. A
 * token is only ever remembered after the full check, and never past its own `exp`.
 */
export function rememberingVerified(
  check: (token: string) => Promise<VerifiedToken & { expiresAt: number }>,
  now: () => number = Date.now,
): TokenVerifier {
  const remembered = new Map<string, VerifiedToken & { expiresAt: number }>();
  return {
    async verify(token) {
      const known = remembered.get(token);
      if (known && now() < known.expiresAt * 1000) return verifiedOf(known);
      if (known) remembered.delete(token);
      const verified = await check(token);
      if (remembered.size >= REMEMBERED_TOKENS) {
        const oldest = remembered.keys().next();
        if (!oldest.done) remembered.delete(oldest.value);
      }
      remembered.set(token, verified);
      return verifiedOf(verified);
    },
  };
}

const expiryOf = (payload: { exp?: unknown }): number => {
  if (typeof payload.exp !== 'number') throw new Error('Token has no expiry');
  return payload.exp;
};

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * Verifies access tokens. Cognito: issuer, client id, expiry and token_use 'access'. The local OpenID
 * provider: issuer, audience, expiry, client_id, and the `at+jwt` type that marks an access token
 * (an ID token, also signed by the provider, is refused).
 */
export function createTokenVerifier(
  auth: AuthConfig = config().auth,
  opts: {
    /** Signing keys known in advance: used instead of a first fetch from the issuer. */
    jwks?: Jwks;
  } = {},
): TokenVerifier {
  if (auth.provider === 'cognito') {
    const verifier = CognitoJwtVerifier.create({
      userPoolId: auth.userPoolId as string,
      tokenUse: 'access',
      clientId: auth.clientId,
    });
    if (opts.jwks) verifier.cacheJwks(opts.jwks);
    return rememberingVerified(async (token) => {
      const payload = await verifier.verify(token);
      return {
        sub: payload.sub,
        groups: stringList(payload['cognito:groups']),
        expiresAt: expiryOf(payload),
        ...issuedAtOf(payload),
      };
    });
  }
  const issuer = auth.issuer as string;
  const verifier = JwtVerifier.create(
    {
      issuer,
      audience: auth.audience ?? null,
      jwksUri: auth.jwksUri ?? `${issuer}/jwks`,
      customJwtCheck: ({ header, payload }) => {
        if (header.typ !== 'at+jwt') throw new Error('Not an access token');
        if (payload.client_id !== auth.clientId) throw new Error('Token issued to another client');
      },
    },
    { jwksCache: new SimpleJwksCache({ fetcher: anyProtocolFetcher }) },
  );
  if (opts.jwks) verifier.cacheJwks(opts.jwks);
  return rememberingVerified(async (token) => {
    const payload = await verifier.verify(token);
    if (typeof payload.sub !== 'string') throw new Error('Token has no subject');
    return {
      sub: payload.sub,
      groups: stringList(payload.roles),
      expiresAt: expiryOf(payload),
      ...issuedAtOf(payload),
    };
  });
}

let shared: TokenVerifier | undefined;
export function tokenVerifier(): TokenVerifier {
  shared ??= createTokenVerifier();
  return shared;
}
