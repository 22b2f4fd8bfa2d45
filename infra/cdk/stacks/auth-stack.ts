import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccountRecovery,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import type { DeployContext } from '../context.ts';

export interface AuthStackProps extends StackProps {
  context: Pick<DeployContext, 'authCallbackUrls' | 'authLogoutUrls' | 'authDomainPrefix' | 'mfa'>;
}

/**
 * Who may sign in: a Cognito user pool with hosted sign-in, second factor by SMS or authenticator app,
 * and the SPA's public client (authorization code + PKCE, as oidc-client-ts signs in).
 */
export class AuthStack extends Stack {
  readonly userPool: UserPool;
  readonly webClient: UserPoolClient;
  readonly domain: UserPoolDomain;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { context } = props;

    this.userPool = new UserPool(this, 'UserPool', {
      // Users are invited by company administrators, never self-registered.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      mfa: context.mfa === 'REQUIRED' ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { sms: true, otp: true },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // SMS is a second factor here, so it must not also reset the password.
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.webClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        // COGNITO_ADMIN lets the access token call the user's own Cognito actions (authenticator-app
        // enrolment: AssociateSoftwareToken, VerifySoftwareToken).
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE, OAuthScope.COGNITO_ADMIN],
        callbackUrls: context.authCallbackUrls,
        logoutUrls: context.authLogoutUrls,
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    this.domain = this.userPool.addDomain('HostedSignIn', {
      cognitoDomain: { domainPrefix: context.authDomainPrefix },
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'WebClientId', { value: this.webClient.userPoolClientId });
    new CfnOutput(this, 'HostedSignInUrl', { value: this.domain.baseUrl() });
  }
}
