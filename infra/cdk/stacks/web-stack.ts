import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import type { WebConfig } from '../../../web/lib/config.ts';
import { secureBucket } from '../constructs/secure-bucket.ts';
import { API_BASE_PATH } from './api-stack.ts';

/**
 * Serves the app shell for the SPA's own paths. A distribution-wide 403/404 → /index.html error response
 * would also turn the API's JSON errors (403 FORBIDDEN, 404 ROUTE_NOT_FOUND) into a 200 HTML page, so the
 * rewrite runs on the SPA behaviour only: a path whose last segment has no file extension is an app route.
 */
export const SPA_FALLBACK_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) {
    request.uri = '/index.html';
  }
  return request;
}`;

export interface WebStackProps extends StackProps {
  /** Host name of the HTTP API's endpoint. */
  apiOriginDomain: string;
  /** The built SPA (`index.html`, `assets/`, …); its own `config.json`, made for the local stack, is left out. */
  webDir: string;
  /** What the SPA reads from `/config.json` at start; values may be tokens of the other stacks. */
  spaConfig: WebConfig;
}

/** One origin for the browser: the SPA from a private bucket, and `/api/*` passed to the HTTP API. */
export class WebStack extends Stack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    if (!existsSync(join(props.webDir, 'index.html')))
      throw new Error(
        `No built SPA in ${props.webDir}: run \`node web/build.ts --out ${props.webDir}\` first`,
      );
    this.bucket = secureBucket(this, 'web');

    const spaFallback = new EdgeFunction(this, 'SpaFallback', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(SPA_FALLBACK_CODE),
      comment: 'App routes get index.html',
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Voltfolio',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [`${API_BASE_PATH}/*`]: {
          origin: new HttpOrigin(props.apiOriginDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });

    new BucketDeployment(this, 'Spa', {
      destinationBucket: this.bucket,
      sources: [
        Source.asset(props.webDir, { exclude: ['config.json'] }),
        Source.jsonData('config.json', props.spaConfig),
      ],
      // Chunks of the release before stay, so a tab opened before a deploy can still load its lazy pages.
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });

    new CfnOutput(this, 'WebBucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId });
    new CfnOutput(this, 'AppUrl', { value: `https://${this.distribution.distributionDomainName}` });
  }
}
