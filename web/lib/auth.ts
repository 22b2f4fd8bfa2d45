import {
  type SigninSilentArgs,
  type User,
  UserManager,
  type UserManagerSettings,
  WebStorageStateStore,
} from 'oidc-client-ts';
import type { ResolvedConfig } from './config.ts';
import { safeReturnUrl } from './login-redirect.ts';

interface SigninState {
  returnUrl: string;
}

/**
 * The silent renew timer calls `signinSilent()` without arguments, so a resource indicator given only
 * at sign-in would be dropped on refresh and the renewed token would lose the API audience. Renewals
 * are also shared: refresh tokens rotate, so two concurrent refreshes with one token would fail the
 * second and end the session.
 */
class ResourceUserManager extends UserManager {
  tokenParams: Record<string, string> = {};
  #renewal: Promise<User | null> | undefined;

  override signinSilent(args: SigninSilentArgs = {}): Promise<User | null> {
    this.#renewal ??= super
      .signinSilent({ ...args, extraTokenParams: { ...this.tokenParams, ...args.extraTokenParams } })
      .finally(() => {
        this.#renewal = undefined;
      });
    return this.#renewal;
  }
}

export interface Auth {
  /** The signed-in user with a usable access token (renewed by refresh token if it had expired), or null. */
  getUser(): Promise<User | null>;
  getAccessToken(): Promise<string | null>;
  /** Sends the browser to the provider's sign-in, coming back to `returnUrl`. */
  signIn(returnUrl: string): Promise<void>;
  /** Completes the code + PKCE exchange on /auth/callback and answers the URL to return to. */
  completeSignIn(): Promise<string>;
  /**
   * Forgets the user and ends the provider session, landing on `/`. `beforeEnd` (the API session
   * end) runs first; its failure does not stop the sign-out. Repeated calls while leaving are ignored.
   */
  signOut(beforeEnd?: () => Promise<unknown>): Promise<void>;
}

export function userManagerSettings(config: ResolvedConfig): UserManagerSettings {
  const resourceParams: Record<string, string> = config.resource ? { resource: config.resource } : {};
  return {
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: `${config.origin}/auth/callback`,
    post_logout_redirect_uri: `${config.origin}/`,
    response_type: 'code',
    scope: config.scope,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    automaticSilentRenew: true,
    // Claims come from the ID token; the access token's audience is the API, not the userinfo endpoint.
    loadUserInfo: false,
    extraQueryParams: resourceParams,
    extraTokenParams: resourceParams,
    ...(config.endSessionEndpoint
      ? { metadataSeed: { end_session_endpoint: config.endSessionEndpoint } }
      : {}),
  };
}

export function createAuth(config: ResolvedConfig): Auth {
  const manager = new ResourceUserManager(userManagerSettings(config));
  if (config.resource) manager.tokenParams = { resource: config.resource };
  let callback: Promise<string> | undefined;
  let leaving = false;

  async function getUser(): Promise<User | null> {
    const user = await manager.getUser();
    if (!user) return null;
    if (!user.expired) return user;
    if (user.refresh_token) {
      try {
        return await manager.signinSilent();
      } catch {
        // The refresh token was refused: fall through to signed out.
      }
    }
    await manager.removeUser();
    return null;
  }

  return {
    getUser,
    async getAccessToken() {
      return (await getUser())?.access_token ?? null;
    },
    async signIn(returnUrl) {
      const state: SigninState = { returnUrl: safeReturnUrl(returnUrl) };
      await manager.signinRedirect({ state });
    },
    completeSignIn() {
      // The code can be exchanged once; a second render of the callback page reuses the first result.
      callback ??= manager.signinCallback().then((user) => {
        const state = user?.state as Partial<SigninState> | undefined;
        return safeReturnUrl(state?.returnUrl);
      });
      return callback;
    },
    async signOut(beforeEnd) {
      if (leaving) return;
      leaving = true;
      if (beforeEnd) await beforeEnd().catch(() => undefined);
      try {
        await manager.signoutRedirect({ extraQueryParams: config.logoutParams });
      } catch {
        // No end-session endpoint reachable: forget the user here at least.
        await manager.removeUser();
        window.location.assign('/');
      }
    },
  };
}
