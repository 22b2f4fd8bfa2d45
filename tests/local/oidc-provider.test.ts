import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../../functions/core/adapters/token-verifier.ts';
import { type AccountStore, openAccountStore } from '../../infra/local/oidc/account-store.ts';
import { createOidc, type Oidc } from '../../infra/local/oidc/provider.ts';
import { CookieJar, refreshTokens, signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { generateTotpSecret } from '../../infra/local/oidc/totp.ts';

const PASSWORD = 'Voltfolio-demo-2026!';

let server: Server;
let oidc: Oidc;
let origin: string;
let stateDir: string;
let accounts: AccountStore;

const verifierFor = () =>
  createTokenVerifier({
    provider: 'oidc',
    issuer: oidc.issuer,
    jwksUri: `${oidc.issuer}/jwks`,
    clientId: 'voltfolio-web',
    audience: `${origin}/api`,
  });

const jwtPart = (token: string, index: 0 | 1): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8'));

const signIn = (email: string, extra: { password?: string; totpCode?: string; cookieJar?: CookieJar } = {}) =>
  signInForToken({ baseUrl: origin, email, password: extra.password ?? PASSWORD, ...extra });

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'voltfolio-oidc-'));
  server = createServer((req: IncomingMessage, res: ServerResponse) => oidc.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  oidc = await createOidc({ origin, stateDir });
  accounts = openAccountStore(stateDir);
  await accounts.upsert({
    email: 'owner@demo.test',
    name: 'Olive Owner',
    password: PASSWORD,
    roles: ['company_owner', 'company_admin'],
  });
  await accounts.upsert({ email: 'user@demo.test', name: 'Uma User', password: PASSWORD });
});

afterAll(async () => {
  await oidc?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(stateDir, { recursive: true, force: true });
});

describe('local OpenID provider', () => {
  it('publishes its issuer under /oidc on the one origin', async () => {
    const res = await fetch(`${origin}/oidc/.well-known/openid-configuration`);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(`${origin}/oidc`);
    expect(oidc.issuer).toBe(`${origin}/oidc`);
    expect(doc.authorization_endpoint).toBe(`${origin}/oidc/auth`);
    expect(doc.token_endpoint).toBe(`${origin}/oidc/token`);
    expect(doc.jwks_uri).toBe(`${origin}/oidc/jwks`);
    expect(doc.end_session_endpoint).toBe(`${origin}/oidc/session/end`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('shows an accessible sign-in page to a browser that starts signing in', async () => {
    const jar = new CookieJar();
    const auth = new URL(`${origin}/oidc/auth`);
    auth.search = new URLSearchParams({
      client_id: 'voltfolio-web',
      response_type: 'code',
      redirect_uri: `${origin}/auth/callback`,
      scope: 'openid email profile offline_access',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const first = await fetch(auth, { redirect: 'manual' });
    jar.store(first);
    expect(first.status).toBe(303);
    const pageUrl = new URL(first.headers.get('location') ?? '', origin);
    expect(pageUrl.pathname).toMatch(/^\/oidc\/interaction\//);
    const page = await fetch(pageUrl, { headers: { cookie: jar.header(pageUrl) } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<title>Sign in to Voltfolio</title>');
    expect(html).toMatch(/<label for="email">E-mail<\/label>\s*<input id="email" name="email" type="email"/);
    expect(html).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password"/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('refuses an authorization request without PKCE', async () => {
    const auth = new URL(`${origin}/oidc/auth`);
    auth.search = new URLSearchParams({
      client_id: 'voltfolio-web',
      response_type: 'code',
      redirect_uri: `${origin}/auth/callback`,
      scope: 'openid',
    }).toString();
    const res = await fetch(auth, { redirect: 'manual' });
    const location = new URL(res.headers.get('location') ?? '', origin);
    expect(location.pathname).toBe('/auth/callback');
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it("issues an access token the functions' verifier accepts, with the account's roles", async () => {
    const tokens = await signIn('Owner@Demo.test');
    const owner = await accounts.findByEmail('owner@demo.test');
    const verified = await verifierFor().verify(tokens.accessToken);
    expect(verified).toEqual({
      sub: owner?.sub,
      groups: ['company_owner', 'company_admin'],
      issuedAt: jwtPart(tokens.accessToken, 1).iat,
    });

    const header = jwtPart(tokens.accessToken, 0);
    const payload = jwtPart(tokens.accessToken, 1);
    expect(header).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    expect(payload).toMatchObject({
      iss: `${origin}/oidc`,
      aud: `${origin}/api`,
      client_id: 'voltfolio-web',
    });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(15 * 60);
  });

  it('puts e-mail, name and roles into the ID token, which the verifier refuses as an access token', async () => {
    const tokens = await signIn('owner@demo.test');
    expect(jwtPart(tokens.idToken, 1)).toMatchObject({
      email: 'owner@demo.test',
      name: 'Olive Owner',
      roles: ['company_owner', 'company_admin'],
      aud: 'voltfolio-web',
    });
    await expect(verifierFor().verify(tokens.idToken)).rejects.toThrow();
    // Without the audience check the token type alone still gives it away.
    const typeOnly = createTokenVerifier({
      provider: 'oidc',
      issuer: oidc.issuer,
      clientId: 'voltfolio-web',
    });
    await expect(typeOnly.verify(tokens.idToken)).rejects.toThrow(/Not an access token/);
    await expect(typeOnly.verify(tokens.accessToken)).resolves.toHaveProperty('sub');
  });

  it('refuses a token with the right claims signed by another key', async () => {
    const { accessToken } = await signIn('user@demo.test');
    const [header, payload] = accessToken.split('.');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = `${header}.${payload}.${sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')}`;
    const verifier = verifierFor();
    await expect(verifier.verify(accessToken)).resolves.toMatchObject({ groups: [] });
    await expect(verifier.verify(forged)).rejects.toThrow(/signature/i);
  });

  it('says "Incorrect e-mail or password." for a wrong password or an unknown e-mail', async () => {
    await expect(signIn('user@demo.test', { password: 'not-the-password' })).rejects.toThrow(
      'Incorrect e-mail or password.',
    );
    await expect(signIn('nobody@demo.test')).rejects.toThrow('Incorrect e-mail or password.');
  });

  it('makes the client that guessed five times wait before its next try on that address', async () => {
    await accounts.upsert({ email: 'guessed@demo.test', name: 'Gus', password: PASSWORD });
    for (let i = 0; i < 5; i++) {
      await expect(signIn('guessed@demo.test', { password: `guess-${i}` })).rejects.toThrow(
        'Incorrect e-mail or password.',
      );
    }
    await expect(signIn('guessed@demo.test')).rejects.toThrow(/Too many failed attempts. Wait a second/);
    await expect(signIn('user@demo.test')).resolves.toHaveProperty('accessToken');
    // A wait, not a lock: once it has passed, the right password works.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(signIn('guessed@demo.test')).resolves.toHaveProperty('accessToken');
  });

  it('asks an account with an authenticator for its code and accepts only the right one', async () => {
    const account = await accounts.upsert({ email: 'mfa@demo.test', name: 'Mo Factor', password: PASSWORD });
    const secret = generateTotpSecret();
    await accounts.setTotpSecret(account.sub, secret);

    await expect(signIn('mfa@demo.test')).rejects.toThrow(/6-digit authenticator code/);
    const right = await generate({ secret });
    const wrong = right === '000000' ? '111111' : '000000';
    await expect(signIn('mfa@demo.test', { totpCode: wrong })).rejects.toThrow(
      'That code is not right. Try again.',
    );
    const tokens = await signIn('mfa@demo.test', { totpCode: right });
    await expect(verifierFor().verify(tokens.accessToken)).resolves.toMatchObject({ sub: account.sub });
  });

  it('renews tokens with a refresh token, which is rotated on use', async () => {
    const first = await signIn('user@demo.test');
    const renewed = await refreshTokens({ baseUrl: origin, refreshToken: first.refreshToken });
    expect(renewed.refreshToken).not.toBe(first.refreshToken);
    expect(renewed.accessToken).not.toBe(first.accessToken);
    const user = await accounts.findByEmail('user@demo.test');
    await expect(verifierFor().verify(renewed.accessToken)).resolves.toMatchObject({ sub: user?.sub });
    await expect(refreshTokens({ baseUrl: origin, refreshToken: first.refreshToken })).rejects.toThrow(
      /invalid_grant/,
    );
  });

  it('ends the refresh token when the user signs out', async () => {
    const jar = new CookieJar();
    const tokens = await signIn('user@demo.test', { cookieJar: jar });
    const end = new URL(`${origin}/oidc/session/end`);
    end.search = new URLSearchParams({
      id_token_hint: tokens.idToken,
      post_logout_redirect_uri: `${origin}/`,
    }).toString();
    const page = await fetch(end, { headers: { cookie: jar.header(end) } });
    jar.store(page);
    const html = await page.text();
    expect(html).toContain('Sign out of Voltfolio?');
    const action = new URL(/action="([^"]+)"/.exec(html)?.[1] ?? '', origin);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirm = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(action), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(confirm.headers.get('location')).toBe(`${origin}/`);
    await expect(refreshTokens({ baseUrl: origin, refreshToken: tokens.refreshToken })).rejects.toThrow(
      /invalid_grant/,
    );
  });

  it('keeps its signing key, sessions and refresh tokens across a restart', async () => {
    const before = await signIn('owner@demo.test');
    const keysBefore = await readFile(join(stateDir, 'oidc', 'keys.json'), 'utf8');
    await oidc.close();
    oidc = await createOidc({ origin, stateDir });

    expect(await readFile(join(stateDir, 'oidc', 'keys.json'), 'utf8')).toBe(keysBefore);
    await expect(verifierFor().verify(before.accessToken)).resolves.toMatchObject({
      groups: ['company_owner', 'company_admin'],
    });
    const renewed = await refreshTokens({ baseUrl: origin, refreshToken: before.refreshToken });
    await expect(verifierFor().verify(renewed.accessToken)).resolves.toHaveProperty('sub');
  });
});
