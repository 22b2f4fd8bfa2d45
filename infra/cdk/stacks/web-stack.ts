import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
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
import { contentSecurityPolicy } from '../../security-headers.ts';
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
  /** Origins the SPA calls besides its own (sign-in, WebSocket, buckets), for its content security policy. */
  connectSources: readonly string[];
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

    // The same headers as the local stack's gateway (infra/security-headers.ts), on the app and the API.
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Voltfolio: content security policy, no framing, no sniffing',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy({ connect: props.connectSources }),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Voltfolio',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [`${API_BASE_PATH}/*`]: {
          origin: new HttpOrigin(props.apiOriginDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: headers,
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
