import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type Configuration, errors } from 'oidc-provider';
import { openAccountStore } from './account-store.ts';
import { createFileAdapter } from './file-adapter.ts';
import { createInteractions, FIRST_PARTY_CLIENT } from './interactions.ts';
import { loadOrCreateKeys } from './keys.ts';
import { messagePage, signOutPage } from './pages.ts';

export interface OidcOptions {
  /** Public origin of the local stack, e.g. http://localhost:3000. */
  origin: string;
  /** Directory of the local stack's state; the provider keeps its files under `<stateDir>/oidc`. */
  stateDir: string;
  /** Path the provider is served under on the origin. */
  mountPath?: string;
}

export interface Oidc {
  issuer: string;
  /** Serves a request whose path starts with the mount path; the request body must not have been read. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Waits until sessions and refresh tokens are written to disk. */
  close(): Promise<void>;
}

const ACCESS_TOKEN_TTL = 15 * 60;
const SESSION_TTL = 14 * 24 * 60 * 60;
const SCOPES = 'openid email profile offline_access';
/** Scopes the API's access tokens carry, mirroring Cognito's access tokens. */
const API_SCOPES = 'openid email profile';

/**
 * The local stand-in for Cognito: an OpenID provider for the web client `voltfolio-web` whose access tokens
 * are RS256 JWTs (typ at+jwt) for the resource `${origin}/api`, verified by the functions like Cognito's.
 */
export async function createOidc(opts: OidcOptions): Promise<Oidc> {
  const origin = opts.origin.replace(/\/+$/, '');
  const mountPath = `/${(opts.mountPath ?? '/oidc').replace(/^\/+|\/+$/g, '')}`;
  const issuer = `${origin}${mountPath}`;
  const apiResource = `${origin}/api`;
  const accounts = openAccountStore(opts.stateDir);
  const keys = loadOrCreateKeys(opts.stateDir);
  const adapter = createFileAdapter(opts.stateDir);

  const configuration: Configuration = {
    adapter: adapter.factory,
    jwks: keys.jwks,
    cookies: {
      keys: keys.cookieKeys,
      names: { session: 'vf_session', interaction: 'vf_interaction', resume: 'vf_interaction_resume' },
    },
    clients: [
      {
        client_id: FIRST_PARTY_CLIENT,
        client_name: 'Voltfolio',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${origin}/auth/callback`, `${origin}/auth/silent`],
        post_logout_redirect_uris: [`${origin}/`],
        scope: SCOPES,
      },
    ],
    scopes: SCOPES.split(' '),
    responseTypes: ['code'],
    claims: {
      openid: ['sub', 'roles'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, requestOrigin) => requestOrigin === origin,
    async findAccount(_ctx, sub) {
      const account = await accounts.findBySub(sub);
      if (!account) return undefined;
      return {
        accountId: account.sub,
        claims: () => ({
          sub: account.sub,
          email: account.email,
          email_verified: true,
          name: account.name,
          ...(account.roles ? { roles: account.roles } : {}),
        }),
      };
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accounts.findBySub(token.accountId);
      return account?.roles ? { roles: account.roles } : undefined;
    },
    // Refresh tokens follow the client, not offline_access: silent renewal (prompt=none) drops that scope.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Signing out of Voltfolio ends its refresh tokens too, offline_access or not.
    expiresWithSession: () => true,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = signOutPage(form);
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = messagePage({
            title: 'You are signed out',
            message: 'You have signed out of Voltfolio.',
            link: { href: `${origin}/`, text: 'Back to Voltfolio' },
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx, resource) {
          if (resource !== apiResource) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPES,
            audience: apiResource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`,
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = messagePage({
        title: 'Sign-in problem',
        message: [out.error, out.error_description].filter(Boolean).join(': '),
        link: { href: `${origin}/`, text: 'Back to Voltfolio' },
      });
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: SESSION_TTL,
      Grant: SESSION_TTL,
      // A rotated refresh token keeps the lifetime of the one it replaces, so a session still ends.
      RefreshToken: (ctx, _token, _client) =>
        ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? SESSION_TTL,
    },
  };

  const provider = new Provider(issuer, configuration);
  // A development proxy (e.g. the web dev server) may sit in front of the local stack.
  provider.proxy = true;
  provider.on('server_error', (_ctx, err) => console.error('OpenID provider error:', err));

  const handleInteraction = createInteractions({ provider, accounts, mountPath, origin });
  const providerCallback = provider.callback();

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const originalUrl = req.url ?? '/';
    const path = originalUrl.split('?')[0] ?? '/';
    if (path !== mountPath && !path.startsWith(`${mountPath}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found');
      return;
    }
    handleInteraction(req, res, path)
      .then((handled) => {
        if (handled) return;
        // The connect/express way of mounting: the provider sees the path below its mount point and works
        // out its public URLs from originalUrl/baseUrl.
        const below = originalUrl.slice(mountPath.length);
        Object.assign(req, {
          originalUrl,
          baseUrl: mountPath,
          url: below.startsWith('/') ? below : `/${below}`,
        });
        return providerCallback(req, res);
      })
      .catch((err: unknown) => {
        console.error('OpenID provider request failed:', err);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('Internal error');
        } else {
          res.end();
        }
      });
  }

  return { issuer, handle, close: () => adapter.flush() };
}
