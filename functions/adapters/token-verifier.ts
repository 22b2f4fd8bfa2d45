import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { type Jwks, SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { type AuthConfig, config } from '../config.ts';

export interface VerifiedToken {
  sub: string;
  /** Cognito group names or provider role claims. */
  groups: string[];
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
    return {
      async verify(token) {
        const payload = await verifier.verify(token);
        return { sub: payload.sub, groups: stringList(payload['cognito:groups']) };
      },
    };
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
  return {
    async verify(token) {
      const payload = await verifier.verify(token);
      if (typeof payload.sub !== 'string') throw new Error('Token has no subject');
      return { sub: payload.sub, groups: stringList(payload.roles) };
    },
  };
}

let shared: TokenVerifier | undefined;
export function tokenVerifier(): TokenVerifier {
  shared ??= createTokenVerifier();
  return shared;
}
