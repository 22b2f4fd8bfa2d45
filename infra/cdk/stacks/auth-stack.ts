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
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { DeployContext } from '../context.ts';

/** Sign-in requests one address may make in five minutes: far above a person, far below a script. */
const SIGN_IN_LIMIT = 100;

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

    this.limitSignInsPerAddress();

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'WebClientId', { value: this.webClient.userPoolClientId });
    new CfnOutput(this, 'HostedSignInUrl', { value: this.domain.baseUrl() });
  }

  /**
   * Cognito's own lock is per user; this one is per address. An address that makes more than
   * SIGN_IN_LIMIT sign-in requests in five minutes is blocked until it slows down, whichever users it
   * tries, on hosted sign-in (the form and the token endpoint) and on the API calls an app signs in with.
   */
  private limitSignInsPerAddress(): void {
    const byteMatch = (field: CfnWebACL.FieldToMatchProperty, search: string, constraint: string) => ({
      byteMatchStatement: {
        fieldToMatch: field,
        searchString: search,
        positionalConstraint: constraint,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const path = (prefix: string) => byteMatch({ uriPath: {} }, prefix, 'STARTS_WITH');
    // `X-Amz-Target: AWSCognitoIdentityProviderService.InitiateAuth` names the call.
    const target = (action: string) =>
      byteMatch({ singleHeader: { Name: 'x-amz-target' } }, `.${action}`, 'ENDS_WITH');
    const rule = (name: string, priority: number, scopeDown: CfnWebACL.StatementProperty) => ({
      name,
      priority,
      action: { block: { customResponse: { responseCode: 429 } } },
      statement: {
        rateBasedStatement: {
          aggregateKeyType: 'IP',
          limit: SIGN_IN_LIMIT,
          evaluationWindowSec: 300,
          scopeDownStatement: scopeDown,
        },
      },
      visibilityConfig: { sampledRequestsEnabled: true, cloudWatchMetricsEnabled: true, metricName: name },
    });
    const acl = new CfnWebACL(this, 'SignInLimits', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        sampledRequestsEnabled: true,
        cloudWatchMetricsEnabled: true,
        metricName: 'voltfolio-sign-in',
      },
      rules: [
        rule('hosted-sign-in', 0, {
          orStatement: {
            statements: ['/login', '/oauth2/token', '/forgotPassword', '/confirmForgotPassword', '/mfa'].map(
              path,
            ),
          },
        }),
        rule('api-sign-in', 1, {
          orStatement: {
            statements: ['InitiateAuth', 'RespondToAuthChallenge', 'ForgotPassword'].map(target),
          },
        }),
      ],
    });
    new CfnWebACLAssociation(this, 'SignInLimitsOnUserPool', {
      resourceArn: this.userPool.userPoolArn,
      webAclArn: acl.attrArn,
    });
  }
}
