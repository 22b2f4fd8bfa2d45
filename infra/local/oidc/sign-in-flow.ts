import { createHash, randomBytes } from 'node:crypto';

export interface SignInOptions {
  /** Origin of the local stack, e.g. http://localhost:3000. */
  baseUrl: string;
  email: string;
  password: string;
  /** The authenticator code, for accounts with a second factor. */
  totpCode?: string;
  /** Defaults to `${baseUrl}/oidc`. */
  issuer?: string;
  clientId?: string;
  /** Keeps the provider's cookies, so the signed-in browser session can be used afterwards (e.g. to sign out). */
  cookieJar?: CookieJar;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
}

const CLIENT_ID = 'voltfolio-web';
const SCOPE = 'openid email profile offline_access';
const MAX_HOPS = 15;

/** Just enough of a browser's cookie handling for one origin: names, paths and deletion. */
export class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  store(res: Response): void {
    for (const header of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path' && val.startsWith('/')) path = val;
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(val) <= Date.now()) expired = true;
      }
      const id = `${path} ${name}`;
      if (expired) this.#cookies.delete(id);
      else this.#cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.#cookies.values()]
      .filter(
        ({ path }) =>
          url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`),
      )
      .sort((a, b) => b.path.length - a.path.length)
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }
}

const decodeHtml = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

async function tokenRequest(tokenEndpoint: string, params: Record<string, string>): Promise<Tokens> {
  const res = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(params),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`Token request failed: ${body.error} ${body.error_description ?? ''}`.trim());
  const { access_token, refresh_token, id_token } = body;
  if (typeof access_token !== 'string') throw new Error('The token response has no access token');
  return {
    accessToken: access_token,
    refreshToken: typeof refresh_token === 'string' ? refresh_token : '',
    idToken: typeof id_token === 'string' ? id_token : '',
  };
}

async function discover(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`No OpenID provider at ${issuer} (${res.status})`);
  return (await res.json()) as { authorization_endpoint: string; token_endpoint: string };
}

/**
 * Signs in through the provider's own pages the way a browser does (authorization code with PKCE,
 * cookies, the sign-in form, the authenticator code when asked) and exchanges the code for tokens.
 * Fails with the message the sign-in page shows, e.g. 'Incorrect e-mail or password.'.
 */
export async function signInForToken(opts: SignInOptions): Promise<Tokens> {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const issuer = opts.issuer ?? `${baseUrl}/oidc`;
  const clientId = opts.clientId ?? CLIENT_ID;
  const redirectUri = `${baseUrl}/auth/callback`;
  const { authorization_endpoint, token_endpoint } = await discover(issuer);

  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authUrl = new URL(authorization_endpoint);
  authUrl.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: SCOPE,
    state,
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: opts.email,
  }).toString();

  const jar = opts.cookieJar ?? new CookieJar();
  const request = async (url: URL, form?: Record<string, string>) => {
    const cookie = jar.header(url);
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        accept: 'text/html',
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    jar.store(res);
    return res;
  };

  let url = authUrl;
  let res = await request(url);
  let answered = { password: false, code: false };
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      if (`${url.origin}${url.pathname}` === redirectUri) {
        const error = url.searchParams.get('error');
        if (error)
          throw new Error(`Sign-in refused: ${error} ${url.searchParams.get('error_description') ?? ''}`);
        const code = url.searchParams.get('code');
        if (!code || url.searchParams.get('state') !== state)
          throw new Error('Sign-in returned no usable code');
        return tokenRequest(token_endpoint, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
        });
      }
      res = await request(url);
      continue;
    }

    const html = await res.text();
    const alert = /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (alert && (answered.password || answered.code)) throw new Error(decodeHtml(alert));
    if (!action) throw new Error(`Unexpected sign-in page (${res.status}): ${alert ?? html.slice(0, 200)}`);
    const target = new URL(decodeHtml(action), url);
    if (/name="password"/.test(html) && !answered.password) {
      answered = { password: true, code: false };
      res = await request(target, { email: opts.email, password: opts.password });
    } else if (/name="code"/.test(html) && !answered.code) {
      if (!opts.totpCode) throw new Error('This account asks for a 6-digit authenticator code.');
      answered = { password: true, code: true };
      res = await request(target, { code: opts.totpCode });
    } else {
      throw new Error(`Sign-in did not finish (${res.status})`);
    }
    url = target;
  }
  throw new Error('Sign-in went through too many redirects');
}

/** Exchanges a refresh token for fresh tokens, as the web client's silent renewal does. */
export async function refreshTokens(opts: {
  baseUrl: string;
  refreshToken: string;
  issuer?: string;
  clientId?: string;
}): Promise<Tokens> {
  const issuer = opts.issuer ?? `${opts.baseUrl.replace(/\/+$/, '')}/oidc`;
  const { token_endpoint } = await discover(issuer);
  return tokenRequest(token_endpoint, {
    grant_type: 'refresh_token',
    refresh_token: opts.refreshToken,
    client_id: opts.clientId ?? CLIENT_ID,
  });
}
