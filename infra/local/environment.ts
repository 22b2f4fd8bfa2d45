import { join } from 'node:path';
import { BUCKETS, type BucketName, QUEUES, type QueueName } from '../../shared/system/functions.ts';
import { publicDataEnvironment } from './fakes/public-data-server.ts';
import { connectorEnvironment } from './fakes/supplier-portal-server.ts';

/**
 * The environment the functions see on this machine: the same variables the CDK app sets in AWS, pointing
 * at the in-process emulators. Scripts and tests build it here so that they cannot drift apart.
 */
export const LOCAL_REGION = 'eu-west-2';
/** The account id the emulators use in ARNs and queue URLs. */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_TABLE_NAME = 'voltfolio';
export const OIDC_CLIENT_ID = 'voltfolio-web';
/** The WebSocket API's stage, as in AWS. */
export const LIVE_STAGE = 'live';

export const localBucketName = (bucket: BucketName) => `voltfolio-${bucket}`;
export const deadLetterQueueName = (queue: QueueName) => `${queue}-dlq`;
export const queueArn = (name: string) => `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}`;
/** Queue URLs on the emulator's own origin, so the SQS client never swaps its endpoint for the URL's host. */
export const localQueueUrl = (awsEndpoint: string, name: string) => `${awsEndpoint}/${LOCAL_ACCOUNT}/${name}`;
export const envSuffix = (name: string) => name.toUpperCase().replaceAll('-', '_');

export interface LocalEndpoints {
  /** The one browser-facing origin, e.g. http://localhost:3000. */
  origin: string;
  /** DynamoDB emulator, e.g. http://127.0.0.1:4567. */
  dynamoEndpoint: string;
  /** SQS + S3 emulator, e.g. http://127.0.0.1:4566. */
  awsEndpoint: string;
  /**
   * Where the functions reach S3 when not the emulator itself: the gateway's S3 front
   * (http://127.0.0.1:3000/s3), which stores objects larger than the emulator takes in one request in parts.
   */
  s3Endpoint?: string;
  /** The state directory: sign-in accounts live in `<stateDir>/oidc`, sent mail in `<stateDir>/outbox`. */
  stateDir?: string;
  /** Local servers of the public services (postcodes, police, floods, air quality, EPC register). */
  publicDataUrl?: string;
  /** The Textract stand-in, e.g. http://127.0.0.1:4568. */
  textractEndpoint?: string;
  /** The local supplier portals and smart-meter data API the connectors sign in to. */
  connectorsUrl?: string;
}

export interface LocalUrls {
  origin: string;
  apiUrl: string;
  wsUrl: string;
  issuer: string;
  s3PublicEndpoint: string;
}

export function localUrls(origin: string): LocalUrls {
  const ws = new URL(origin);
  ws.protocol = ws.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    origin,
    apiUrl: `${origin}/api`,
    wsUrl: `${ws.origin}/ws`,
    issuer: `${origin}/oidc`,
    s3PublicEndpoint: `${origin}/s3`,
  };
}

/** The credentials the local stack's functions sign with, and the only ones its S3 front accepts. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export function localEnvironment(endpoints: LocalEndpoints, logLevel = 'info'): Record<string, string> {
  const { origin, dynamoEndpoint, awsEndpoint, s3Endpoint = awsEndpoint, stateDir } = endpoints;
  const urls = localUrls(origin);
  const env: Record<string, string> = {
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    // Fixed ones keep the SDK from searching for real ones; the `/s3` front checks signatures made with them.
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    AWS_ENDPOINT_URL_S3: s3Endpoint,
    AWS_ENDPOINT_URL_SQS: awsEndpoint,
    TABLE_NAME: LOCAL_TABLE_NAME,
    API_BASE_PATH: '/api',
    AUTH_PROVIDER: 'oidc',
    AUTH_ISSUER: urls.issuer,
    AUTH_AUDIENCE: urls.apiUrl,
    AUTH_CLIENT_ID: OIDC_CLIENT_ID,
    AUTH_JWKS_URI: `${urls.issuer}/jwks`,
    // API Gateway's management API answers on the gateway's own origin, under /@connections.
    LIVE_ENDPOINT: origin,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PUBLIC_ENDPOINT: urls.s3PublicEndpoint,
    APP_URL: origin,
    LOG_LEVEL: logLevel,
  };
  if (stateDir) {
    // The Cognito user pool's counterpart is the OpenID provider's account file; SES's is an outbox folder.
    env.IDENTITY_PROVIDER = 'local';
    env.LOCAL_ACCOUNTS_DIR = join(stateDir, 'oidc');
    env.OUTBOX_DIR = join(stateDir, 'outbox');
    // KMS's counterpart for the supplier-portal passwords: a key file made on first use.
    env.PORTAL_SECRET_KEY_FILE = join(stateDir, 'portal-secret.key');
  }
  if (endpoints.connectorsUrl) Object.assign(env, connectorEnvironment(endpoints.connectorsUrl));
  if (endpoints.publicDataUrl) Object.assign(env, publicDataEnvironment(endpoints.publicDataUrl));
  if (endpoints.textractEndpoint) env.AWS_ENDPOINT_URL_TEXTRACT = endpoints.textractEndpoint;
  for (const bucket of BUCKETS) env[`BUCKET_${envSuffix(bucket)}`] = localBucketName(bucket);
  for (const queue of QUEUES) {
    env[`QUEUE_URL_${envSuffix(queue)}`] = localQueueUrl(awsEndpoint, queue);
    env[`QUEUE_URL_${envSuffix(deadLetterQueueName(queue))}`] = localQueueUrl(
      awsEndpoint,
      deadLetterQueueName(queue),
    );
  }
  return env;
}

/** Handlers read process.env (and cache what they read), so this must run before any handler is imported. */
export function applyEnvironment(env: Record<string, string>): void {
  Object.assign(process.env, env);
}
