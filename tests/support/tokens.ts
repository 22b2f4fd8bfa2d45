import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestIssuer {
  issuer: string;
  jwksUri: string;
  audience: string;
  clientId: string;
  /** A signed access token, as the OpenID provider would issue it, with claims overridable for tests. */
  accessToken(
    sub: string,
    overrides?: { header?: Record<string, unknown>; claims?: Record<string, unknown> },
  ): string;
  /** The same token signed by a key the issuer does not publish. */
  foreignToken(sub: string): string;
  stop(): Promise<void>;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function signJwt(
  key: KeyObject,
  kid: string,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
) {
  const h = b64url(JSON.stringify({ alg: 'RS256', kid, ...header }));
  const p = b64url(JSON.stringify(claims));
  const signature = sign('RSA-SHA256', Buffer.from(`${h}.${p}`), key);
  return `${h}.${p}.${b64url(signature)}`;
}

/** A token issuer with a real JWKS endpoint, so the product's verifier runs unchanged in tests. */
export async function startTestIssuer(): Promise<TestIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key-1';
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const audience = 'http://localhost/api';
  const clientId = 'voltfolio-web';
  const claimsFor = (sub: string) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: issuer,
      sub,
      aud: audience,
      client_id: clientId,
      iat: now,
      exp: now + 900,
      scope: 'openid',
    };
  };
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    audience,
    clientId,
    accessToken: (sub, overrides = {}) =>
      signJwt(
        privateKey,
        kid,
        { typ: 'at+jwt', ...overrides.header },
        { ...claimsFor(sub), ...overrides.claims },
      ),
    foreignToken: (sub) =>
      signJwt(
        createPrivateKey(other.privateKey.export({ format: 'pem', type: 'pkcs8' })),
        kid,
        { typ: 'at+jwt' },
        claimsFor(sub),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
