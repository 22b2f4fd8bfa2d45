import { join } from 'node:path';
import { Duration, RemovalPolicy, Tags } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  type BucketName,
  type FunctionDecl,
  QUEUES,
  type QueueName,
} from '../../../shared/system/functions.ts';
import { pascal, upperSnake } from '../system.ts';

/** The resources a function may be granted; which of them it gets is up to its declaration. */
export interface FunctionResources {
  table: ITable;
  buckets: Partial<Record<BucketName, IBucket>>;
  queues: Partial<Record<QueueName, IQueue>>;
  /** Each queue's dead-letter queue, by the queue's name. */
  deadLetterQueues?: Partial<Record<QueueName, IQueue>>;
  auth: { userPoolId: string; userPoolArn: string; clientId: string };
  /** The WebSocket stage whose @connections the function may post to. */
  liveStage?: WebSocketStage;
  sender?: IEmailIdentity;
  /** The KMS key supplier-portal passwords are sealed with. */
  portalSecretsKey?: IKey;
}

export interface FunctionSettings {
  /** Folder per function holding the bundled `index.mjs`, see infra/build/bundle-functions.ts. */
  bundleDir: string;
  logRetention: RetentionDays;
  logLevel: string;
  /** Where links in e-mails point (the app's first origin). */
  appUrl: string;
  mailFrom: string;
}

export interface DeclaredFunctionProps {
  decl: FunctionDecl;
  resources: FunctionResources;
  settings: FunctionSettings;
}

function missing(decl: FunctionDecl, what: string): Error {
  return new Error(`Function ${decl.name} is granted ${what}, but this stack was not given it`);
}

/**
 * One Lambda function as shared/system declares it: its bundle, memory and timeout, the environment
 * functions/core/config.ts reads, and exactly the grants the declaration names.
 */
export class DeclaredFunction extends Construct {
  readonly fn: LambdaFunction;
  readonly decl: FunctionDecl;

  constructor(scope: Construct, props: DeclaredFunctionProps) {
    const { decl, resources, settings } = props;
    super(scope, `${pascal(decl.name)}Function`);
    this.decl = decl;

    const environment: Record<string, string> = {
      AUTH_PROVIDER: 'cognito',
      COGNITO_USER_POOL_ID: resources.auth.userPoolId,
      AUTH_CLIENT_ID: resources.auth.clientId,
      TABLE_NAME: resources.table.tableName,
      API_BASE_PATH: '/api',
      LOG_LEVEL: settings.logLevel,
    };

    const grants = decl.grants;
    for (const name of Object.keys(grants.buckets ?? {}) as BucketName[]) {
      const bucket = resources.buckets[name];
      if (!bucket) throw missing(decl, `bucket ${name}`);
      environment[`BUCKET_${upperSnake(name)}`] = bucket.bucketName;
    }
    for (const name of grants.queues ?? []) {
      const queue = resources.queues[name];
      if (!queue) throw missing(decl, `queue ${name}`);
      environment[`QUEUE_URL_${upperSnake(name)}`] = queue.queueUrl;
    }
    if (grants.queueDepths) {
      for (const name of QUEUES) {
        const queue = resources.queues[name];
        const dlq = resources.deadLetterQueues?.[name];
        if (!queue || !dlq) throw missing(decl, `the depths of queue ${name} and its dead letters`);
        environment[`QUEUE_URL_${upperSnake(name)}`] = queue.queueUrl;
        environment[`QUEUE_URL_${upperSnake(name)}_DLQ`] = dlq.queueUrl;
      }
    }
    if (grants.liveConnections) {
      if (!resources.liveStage) throw missing(decl, 'live connections');
      environment.LIVE_ENDPOINT = resources.liveStage.callbackUrl;
    }
    if (grants.sendEmail && !resources.sender) throw missing(decl, 'sending e-mail');
    if (grants.sendEmail) {
      environment.MAIL_FROM = settings.mailFrom;
      environment.APP_URL = settings.appUrl;
    }
    if (grants.userPool) environment.IDENTITY_PROVIDER = 'cognito';
    if (grants.portalSecrets) {
      if (!resources.portalSecretsKey) throw missing(decl, 'portal secrets');
      environment.PORTAL_SECRET_KMS_KEY_ID = resources.portalSecretsKey.keyArn;
    }

    const logGroup = new LogGroup(this, 'Logs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.fn = new LambdaFunction(this, 'Handler', {
      description: `Voltfolio ${decl.kind} function ${decl.name}`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      code: Code.fromAsset(join(settings.bundleDir, decl.name)),
      handler: 'index.handler',
      memorySize: decl.memoryMb,
      timeout: Duration.seconds(decl.timeoutSeconds),
      environment,
      logGroup,
    });
    Tags.of(this).add('voltfolio:function', decl.name);

    this.grantDeclared(resources);
  }

  private grantDeclared(resources: FunctionResources): void {
    const { grants } = this.decl;
    if (grants.table === 'readwrite') resources.table.grantReadWriteData(this.fn);
    else resources.table.grantReadData(this.fn);

    for (const [name, access] of Object.entries(grants.buckets ?? {}) as [BucketName, string][]) {
      const bucket = resources.buckets[name];
      if (!bucket) continue;
      if (access === 'read') bucket.grantRead(this.fn);
      else if (access === 'write') bucket.grantWrite(this.fn);
      else bucket.grantReadWrite(this.fn);
    }
    for (const name of grants.queues ?? []) resources.queues[name]?.grantSendMessages(this.fn);
    if (grants.queueDepths) {
      const arns = QUEUES.flatMap((name) =>
        [resources.queues[name], resources.deadLetterQueues?.[name]].flatMap((q) => (q ? [q.queueArn] : [])),
      );
      // Counting messages only: no receive or delete, so the overview cannot disturb the pipeline.
      this.fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:GetQueueAttributes'], resources: arns }));
    }
    if (grants.liveConnections) resources.liveStage?.grantManagementApiAccess(this.fn);
    if (grants.sendEmail) resources.sender?.grantSendEmail(this.fn);
    if (grants.userPool) {
      // Company administration creates sign-in identities and manages their second factor.
      this.fn.addToRolePolicy(
        new PolicyStatement({
          actions: [
            'cognito-idp:AdminCreateUser',
            'cognito-idp:AdminGetUser',
            'cognito-idp:AdminSetUserPassword',
            'cognito-idp:AdminSetUserMFAPreference',
            'cognito-idp:ListUsers',
          ],
          resources: [resources.auth.userPoolArn],
        }),
      );
    }
    if (grants.portalSecrets && resources.portalSecretsKey) {
      // The key policy trusts the account's IAM, so this statement alone lets the role use the key: one
      // action, the one its declaration names, never both.
      this.fn.addToRolePolicy(
        new PolicyStatement({
          actions: [grants.portalSecrets === 'seal' ? 'kms:Encrypt' : 'kms:Decrypt'],
          resources: [resources.portalSecretsKey.keyArn],
        }),
      );
    }
    if (grants.textract) {
      // Textract takes no resource-level permissions; it reads the document with this role's S3 grants.
      this.fn.addToRolePolicy(
        new PolicyStatement({
          actions: [
            'textract:StartDocumentAnalysis',
            'textract:GetDocumentAnalysis',
            'textract:StartExpenseAnalysis',
            'textract:GetExpenseAnalysis',
          ],
          resources: ['*'],
        }),
      );
    }
  }
}
