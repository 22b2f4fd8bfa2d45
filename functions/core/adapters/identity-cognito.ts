import type { UserType } from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../config.ts';
import type { Identity, IdentityProvider } from './identity.ts';
import { onFirstUse } from './on-first-use.ts';

/** Loaded with the first user-pool call: most requests of the functions that manage people make none. */
const cognito = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-cognito-identity-provider');
  return { lib, client: new lib.CognitoIdentityProviderClient({ region: config().region }) };
});

type Attributes = { Name?: string; Value?: string }[] | undefined;
const attr = (attrs: Attributes, name: string) => attrs?.find((a) => a.Name === name)?.Value;

function identityOf(attrs: Attributes): Identity | undefined {
  const sub = attr(attrs, 'sub');
  const email = attr(attrs, 'email');
  return sub && email ? { sub, email, name: attr(attrs, 'name') ?? email } : undefined;
}

/** E-mail is the pool's sign-in alias, so the admin calls take it (or the sub) as the user name. */
export function cognitoIdentity(userPoolId: string): IdentityProvider {
  const byFilter = async (filter: string) => {
    const { lib, client } = await cognito();
    const out = await client.send(
      new lib.ListUsersCommand({ UserPoolId: userPoolId, Filter: filter, Limit: 1 }),
    );
    const user: UserType | undefined = out.Users?.[0];
    return identityOf(user?.Attributes);
  };
  const quoted = (v: string) => `"${v.replace(/["\\]/g, '')}"`;

  /**
   * Whether `code` is what the user's authenticator app shows now. The pool checks it against the secret
   * associated with the user: the pending one during enrolment, the enrolled one afterwards (the product
   * starts no new association while one is enrolled), which is how removing the app is confirmed too.
   */
  async function codeMatches(accessToken: string | undefined, code: string): Promise<boolean> {
    if (!accessToken) return false;
    const { lib, client } = await cognito();
    const out = await client
      .send(
        new lib.VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code.replace(/\s+/g, '') }),
      )
      .catch((err: { name?: string }) => {
        if (err.name === 'EnableSoftwareTokenMFAException' || err.name === 'CodeMismatchException')
          return undefined;
        throw err;
      });
    return out?.Status === 'SUCCESS';
  }

  return {
    kind: 'cognito',
    findByEmail: (email) => byFilter(`email = ${quoted(email.trim().toLowerCase())}`),
    findBySub: (sub) => byFilter(`sub = ${quoted(sub)}`),
    async createUser({ email, name }) {
      const username = email.trim().toLowerCase();
      const { lib, client } = await cognito();
      try {
        const out = await client.send(
          new lib.AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: username,
            UserAttributes: [
              { Name: 'email', Value: username },
              { Name: 'email_verified', Value: 'true' },
              { Name: 'name', Value: name },
            ],
            // The product sends its own welcome e-mail, with the sign-in address.
            MessageAction: 'SUPPRESS',
          }),
        );
        const identity = identityOf(out.User?.Attributes);
        if (!identity) throw new Error('The user pool returned a user without sub or e-mail');
        return { identity, created: true };
      } catch (err) {
        if (!(err instanceof lib.UsernameExistsException)) throw err;
        const out = await client.send(
          new lib.AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }),
        );
        const identity = identityOf(out.UserAttributes);
        if (!identity) throw new Error('The user pool returned a user without sub or e-mail');
        return { identity, created: false };
      }
    },
    async setTemporaryPassword(identity, password) {
      const { lib, client } = await cognito();
      await client.send(
        new lib.AdminSetUserPasswordCommand({
          UserPoolId: userPoolId,
          Username: identity.email,
          Password: password,
          Permanent: false,
        }),
      );
    },
    async totpEnabled(identity) {
      const { lib, client } = await cognito();
      const out = await client.send(
        new lib.AdminGetUserCommand({ UserPoolId: userPoolId, Username: identity.email }),
      );
      return (out.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
    },
    async startTotp(_identity, accessToken) {
      if (!accessToken) throw new Error('Enrolling an authenticator app needs the user’s own access token');
      const { lib, client } = await cognito();
      const out = await client.send(new lib.AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
      if (!out.SecretCode) throw new Error('The user pool returned no secret');
      return { secret: out.SecretCode, keptByProvider: true };
    },
    async confirmTotp(identity, code, _pending, accessToken) {
      if (!(await codeMatches(accessToken, code))) return false;
      const { lib, client } = await cognito();
      await client.send(
        new lib.AdminSetUserMFAPreferenceCommand({
          UserPoolId: userPoolId,
          Username: identity.email,
          SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
        }),
      );
      return true;
    },
    async disableTotp(identity, code, accessToken) {
      if (!(await codeMatches(accessToken, code))) return false;
      const { lib, client } = await cognito();
      await client.send(
        new lib.AdminSetUserMFAPreferenceCommand({
          UserPoolId: userPoolId,
          Username: identity.email,
          SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
        }),
      );
      return true;
    },
  };
}
