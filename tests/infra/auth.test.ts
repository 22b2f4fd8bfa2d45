import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cdkJsonContext,
  resourcesOfType,
  type Synthesized,
  synthesize,
  templateOf,
} from './support/synth.ts';

describe('sign-in', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  const only = (type: string) => {
    const found = resourcesOfType(synth, type);
    expect(found, type).toHaveLength(1);
    return found[0]?.resource.Properties ?? {};
  };

  it('requires a second factor by SMS or authenticator app', () => {
    const pool = only('AWS::Cognito::UserPool');
    expect(pool.MfaConfiguration).toBe(cdkJsonContext()['voltfolio:mfa'] === 'OPTIONAL' ? 'OPTIONAL' : 'ON');
    expect(pool.EnabledMfas).toEqual(expect.arrayContaining(['SMS_MFA', 'SOFTWARE_TOKEN_MFA']));
  });

  it('lets nobody sign themselves up and signs in by e-mail with a strong password', () => {
    const pool = only('AWS::Cognito::UserPool');
    expect(pool.AdminCreateUserConfig).toEqual({ AllowAdminCreateUserOnly: true });
    expect(pool.UsernameAttributes).toEqual(['email']);
    expect(pool.Policies).toEqual({
      PasswordPolicy: expect.objectContaining({
        RequireLowercase: true,
        RequireUppercase: true,
        RequireNumbers: true,
        RequireSymbols: true,
        MinimumLength: expect.any(Number),
      }),
    });
    const policy = pool.Policies as { PasswordPolicy: { MinimumLength: number } };
    expect(policy.PasswordPolicy.MinimumLength).toBeGreaterThanOrEqual(12);
    expect(pool.DeletionProtection).toBe('ACTIVE');
  });

  it('gives the SPA a public client with the authorization code grant only', () => {
    const client = only('AWS::Cognito::UserPoolClient');
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    // aws.cognito.signin.user.admin: the user's access token enrols an authenticator app.
    expect([...(client.AllowedOAuthScopes as string[])].sort()).toEqual([
      'aws.cognito.signin.user.admin',
      'email',
      'openid',
      'profile',
    ]);
    expect(client.SupportedIdentityProviders).toEqual(['COGNITO']);
    expect(client.CallbackURLs).toEqual(cdkJsonContext()['voltfolio:authCallbackUrls']);
    expect(client.LogoutURLs).toEqual(cdkJsonContext()['voltfolio:authLogoutUrls']);
  });

  it('hosts sign-in under the domain prefix from context', () => {
    expect(only('AWS::Cognito::UserPoolDomain').Domain).toBe(cdkJsonContext()['voltfolio:authDomainPrefix']);
  });

  it('limits sign-in attempts per address: a regional web ACL on the user pool blocks an address that signs in too often', () => {
    const acl = only('AWS::WAFv2::WebACL');
    expect(acl.Scope).toBe('REGIONAL');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const rules = acl.Rules as {
      Action?: Record<string, unknown>;
      Statement: {
        RateBasedStatement?: {
          AggregateKeyType: string;
          Limit: number;
          EvaluationWindowSec?: number;
          ScopeDownStatement?: unknown;
        };
      };
    }[];
    const limits = rules.filter((r) => r.Statement.RateBasedStatement);
    expect(limits.length).toBeGreaterThan(0);
    for (const rule of limits) {
      const rate = rule.Statement.RateBasedStatement;
      expect(rule.Action).toEqual({ Block: expect.anything() });
      expect(rate?.AggregateKeyType).toBe('IP');
      // A person mistyping a password never comes near it; a password-guessing script soon does.
      expect(rate?.Limit).toBeLessThanOrEqual(100);
    }
    // Hosted sign-in's form and token endpoint, and the API calls an app signs in with.
    const scoped = JSON.stringify(limits.map((r) => r.Statement.RateBasedStatement?.ScopeDownStatement));
    for (const signIn of ['/login', '/oauth2/token', 'InitiateAuth', 'RespondToAuthChallenge'])
      expect(scoped, signIn).toContain(signIn);
    const association = only('AWS::WAFv2::WebACLAssociation');
    const pool = resourcesOfType(synth, 'AWS::Cognito::UserPool')[0];
    expect(JSON.stringify(association.ResourceArn)).toContain(pool?.logicalId ?? 'no pool');
  });

  it('follows the deployment context for URLs, domain and MFA', () => {
    const other = synthesize({
      context: {
        'voltfolio:authCallbackUrls': 'https://app.example.com/auth/callback',
        'voltfolio:authLogoutUrls': ['https://app.example.com/'],
        'voltfolio:authDomainPrefix': 'example-signin',
        'voltfolio:mfa': 'OPTIONAL',
      },
    });
    try {
      const template = templateOf(other, other.stacks.auth.stackName);
      template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
        CallbackURLs: ['https://app.example.com/auth/callback'],
        LogoutURLs: ['https://app.example.com/'],
      });
      template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'example-signin' });
      template.hasResourceProperties('AWS::Cognito::UserPool', { MfaConfiguration: 'OPTIONAL' });
    } finally {
      other.cleanup();
    }
  });
});
