import { identityConfig } from '../config.ts';
import { cognitoIdentity } from './identity-cognito.ts';
import { localIdentity } from './identity-local.ts';

/** A person as the identity provider knows them; `sub` is the key of their profile and memberships. */
export interface Identity {
  sub: string;
  email: string;
  name: string;
}

/**
 * Where sign-in identities live: the Cognito user pool in AWS, the local OpenID provider's account store
 * on a developer's machine. Passwords and second factors never leave the provider; the product only
 * creates people, sets a temporary password for the welcome e-mail, and manages the authenticator app.
 */
export interface IdentityProvider {
  readonly kind: 'cognito' | 'local';
  findByEmail(email: string): Promise<Identity | undefined>;
  findBySub(sub: string): Promise<Identity | undefined>;
  /** Creates the person, or returns the existing one with that e-mail (`created` false). */
  createUser(input: { email: string; name: string }): Promise<{ identity: Identity; created: boolean }>;
  /** A password that must be changed (Cognito) or used once to sign in (local), for the welcome e-mail. */
  setTemporaryPassword(identity: Identity, password: string): Promise<void>;
  totpEnabled(identity: Identity): Promise<boolean>;
  /**
   * Begins authenticator-app enrolment. Cognito keeps the pending secret itself (and needs the user's
   * access token); the local provider leaves keeping it to the caller (`keptByProvider` false).
   */
  startTotp(identity: Identity, accessToken?: string): Promise<{ secret: string; keptByProvider: boolean }>;
  /** Checks a code against the pending secret and, when it matches, turns the second factor on. */
  confirmTotp(
    identity: Identity,
    code: string,
    pendingSecret: string | undefined,
    accessToken?: string,
  ): Promise<boolean>;
  /**
   * Turns the second factor off, only when `code` is what the enrolled authenticator app shows now, so a
   * session left open cannot remove it. False, with nothing changed, when the code is wrong.
   */
  disableTotp(identity: Identity, code: string, accessToken?: string): Promise<boolean>;
}

let shared: IdentityProvider | undefined;

export function identityProvider(): IdentityProvider {
  if (!shared) {
    const cfg = identityConfig();
    shared =
      cfg.provider === 'cognito'
        ? cognitoIdentity(cfg.userPoolId as string)
        : localIdentity(cfg.accountsDir as string);
  }
  return shared;
}

/** For tests that point the functions at another provider. */
export function setIdentityProviderForTests(provider: IdentityProvider | undefined): void {
  shared = provider;
}
