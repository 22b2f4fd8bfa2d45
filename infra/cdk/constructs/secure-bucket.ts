import { Duration, RemovalPolicy, Tags } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CorsRule,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { BucketName } from '../../../shared/system/functions.ts';
import { pascal } from '../system.ts';

export interface SecureBucketOptions {
  /** Origins allowed to PUT/GET objects from a browser with presigned URLs. */
  browserOrigins?: readonly string[];
}

/** Lets the browser upload and download through presigned URLs, and read the ETag of what it uploaded. */
export function presignedBrowserCors(origins: readonly string[]): CorsRule {
  return {
    allowedMethods: [HttpMethods.GET, HttpMethods.PUT, HttpMethods.HEAD],
    allowedOrigins: [...origins],
    allowedHeaders: ['*'],
    exposedHeaders: ['ETag'],
    maxAge: 3000,
  };
}

/** A private bucket: no public access, encrypted at rest, TLS only, kept when the stack goes. */
export function secureBucket(scope: Construct, name: BucketName, options: SecureBucketOptions = {}): Bucket {
  const bucket = new Bucket(scope, `${pascal(name)}Bucket`, {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    removalPolicy: RemovalPolicy.RETAIN,
    cors: options.browserOrigins?.length ? [presignedBrowserCors(options.browserOrigins)] : undefined,
    lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
  });
  Tags.of(bucket).add('voltfolio:bucket', name);
  return bucket;
}
