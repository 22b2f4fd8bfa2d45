import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_RECEIPTS } from '../../shared/system/pipeline.ts';
import { present } from '../support/present.ts';
import {
  cdkJsonContext,
  isRecord,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  synthesize,
  tag,
} from './support/synth.ts';

interface Behaviour {
  PathPattern?: string;
  ResponseHeadersPolicyId?: unknown;
  TargetOriginId: string;
  ViewerProtocolPolicy: string;
  CachePolicyId?: string;
  OriginRequestPolicyId?: string;
  AllowedMethods?: string[];
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}

interface Origin {
  Id: string;
  DomainName: unknown;
  OriginPath?: string;
  S3OriginConfig?: unknown;
  OriginAccessControlId?: unknown;
  CustomOriginConfig?: { OriginProtocolPolicy: string };
}

interface DistributionConfig {
  DefaultCacheBehavior: Behaviour;
  CacheBehaviors?: Behaviour[];
  Origins: Origin[];
  CustomErrorResponses?: unknown;
  DefaultRootObject?: string;
}

describe('web distribution', () => {
  let synth: Synthesized;
  let config: DistributionConfig;
  let stack: string;
  beforeAll(() => {
    synth = synthesize();
    const [distribution] = resourcesOfType(synth, 'AWS::CloudFront::Distribution');
    if (!distribution) throw new Error('no distribution');
    stack = distribution.stack;
    config = distribution.resource.Properties?.DistributionConfig as DistributionConfig;
  });
  afterAll(() => synth?.cleanup());

  const originOf = (behaviour: Behaviour) => config.Origins.find((o) => o.Id === behaviour.TargetOriginId);

  it('serves the SPA from the private web bucket through origin access control', () => {
    const origin = originOf(config.DefaultCacheBehavior);
    expect(origin?.OriginAccessControlId).toBeDefined();
    const [bucket] = referencedResources(synth, stack, origin?.DomainName);
    expect(bucket && tag(bucket.resource, 'voltfolio:bucket')).toBe('web');
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultRootObject).toBe('index.html');
  });

  it('passes /api/* uncached, with every viewer header but Host, to the HTTP API', () => {
    const api = config.CacheBehaviors?.find((b) => b.PathPattern === '/api/*');
    if (!api) throw new Error('no /api/* behaviour');
    expect(api.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(api.OriginRequestPolicyId).toBe(
      OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
    expect(api.AllowedMethods).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
    );
    expect(api.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(api.FunctionAssociations).toBeUndefined();
    const origin = originOf(api);
    expect(origin?.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
    // The API's routes start with /api, so the path must reach it unchanged.
    expect(origin?.OriginPath).toBeUndefined();
    const targets = referencedResources(synth, stack, origin?.DomainName);
    expect(targets.map((t) => [t.resource.Type, t.resource.Properties?.ProtocolType])).toEqual([
      ['AWS::ApiGatewayV2::Api', 'HTTP'],
    ]);
  });

  it('sends a content security policy, no framing and no sniffing on the app and the API', () => {
    const api = config.CacheBehaviors?.find((b) => b.PathPattern === '/api/*');
    for (const behaviour of [config.DefaultCacheBehavior, api]) {
      const [policy] = referencedResources(synth, stack, behaviour?.ResponseHeadersPolicyId);
      expect(policy?.resource.Type).toBe('AWS::CloudFront::ResponseHeadersPolicy');
      const headers = policy?.resource.Properties?.ResponseHeadersPolicyConfig;
      const security =
        isRecord(headers) && isRecord(headers.SecurityHeadersConfig) ? headers.SecurityHeadersConfig : {};
      expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
      expect(security.ContentTypeOptions).toEqual({ Override: true });
      const csp = isRecord(security.ContentSecurityPolicy) ? security.ContentSecurityPolicy : {};
      expect(csp.Override).toBe(true);
      // The policy names the region and the sign-in domain by reference: its text is a join.
      const text = JSON.stringify(csp.ContentSecurityPolicy);
      expect(text).toContain("frame-ancestors 'none'");
      expect(text).toContain("script-src 'self';");
      expect(text).toContain("object-src 'none'");
      // What the SPA calls: the hosted UI's token endpoint, the user pool, the WebSocket API, the buckets.
      expect(text).toMatch(/connect-src 'self' https:\/\/.*amazoncognito\.com/);
      for (const host of ['https://cognito-idp.', 'wss://*.execute-api.', 'https://*.s3.'])
        expect(text).toContain(host);
    }
  });

  it('keeps API error responses: no distribution-wide error pages', () => {
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('answers app routes with index.html and leaves files alone', () => {
    const association = config.DefaultCacheBehavior.FunctionAssociations?.find(
      (a) => a.EventType === 'viewer-request',
    );
    const [fn] = referencedResources(synth, stack, association?.FunctionARN);
    const code = String(fn?.resource.Properties?.FunctionCode);
    const handler = new Function(`${code}\nreturn handler;`)() as (event: { request: { uri: string } }) => {
      uri: string;
    };
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/assets/123/accounts')).toBe('/index.html');
    expect(rewrite('/auth/callback')).toBe('/index.html');
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/assets/index-4f2a.js')).toBe('/assets/index-4f2a.js');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
  });

  it('lets only this distribution read the web bucket', () => {
    const [policy] = resourcesOfType(synth, 'AWS::S3::BucketPolicy').filter((p) =>
      referencedResources(synth, p.stack, p.resource.Properties?.Bucket).some(
        (b) => tag(b.resource, 'voltfolio:bucket') === 'web',
      ),
    );
    const doc = policy?.resource.Properties?.PolicyDocument;
    const allows = (isRecord(doc) && Array.isArray(doc.Statement) ? doc.Statement : [])
      .filter(isRecord)
      .filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]?.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(allows[0]?.Action).toBe('s3:GetObject');
    const sources = referencedResources(synth, policy?.stack ?? '', allows[0]?.Condition);
    expect(sources.map((s) => s.resource.Type)).toEqual(['AWS::CloudFront::Distribution']);
  });
});

describe('e-mail', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  it('writes mail for the capture domain into the inbox under the subscribed prefix', () => {
    const intake = present(
      MAIL_RECEIPTS.find((s) => s.bucket === 'inbox'),
      'The inbox mail receipt',
    );
    const [rule] = resourcesOfType(synth, 'AWS::SES::ReceiptRule');
    const props = rule?.resource.Properties?.Rule;
    if (!isRecord(props) || !Array.isArray(props.Actions)) throw new Error('no receipt rule');
    expect(props.Recipients).toEqual([cdkJsonContext()['voltfolio:mailCaptureDomain']]);
    expect(props.Enabled).toBe(true);
    const [action] = props.Actions.filter(isRecord);
    const s3 = isRecord(action?.S3Action) ? action.S3Action : {};
    expect(s3.ObjectKeyPrefix).toBe(intake.prefix);
    const [bucket] = referencedResources(synth, rule?.stack ?? '', s3.BucketName);
    expect(bucket && tag(bucket.resource, 'voltfolio:bucket')).toBe('inbox');
  });

  it('lets SES of this account write only below the mail prefix of the inbox', () => {
    const intake = present(
      MAIL_RECEIPTS.find((s) => s.bucket === 'inbox'),
      'The inbox mail receipt',
    );
    const statements = resourcesOfType(synth, 'AWS::S3::BucketPolicy').flatMap((p) => {
      const doc = p.resource.Properties?.PolicyDocument;
      return (isRecord(doc) && Array.isArray(doc.Statement) ? doc.Statement : [])
        .filter(isRecord)
        .map((s) => ({ stack: p.stack, s }));
    });
    const ses = statements.filter(
      ({ s }) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'ses.amazonaws.com' }),
    );
    expect(ses).toHaveLength(1);
    const [only] = ses;
    expect(only?.s.Action).toBe('s3:PutObject');
    expect(JSON.stringify(only?.s.Resource)).toContain(`/${intake?.prefix}*`);
    expect(only?.s.Condition).toEqual({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
  });

  it("hands SES's receipt of each mail, with its envelope recipients, to the e-mail intake queue", () => {
    const intake = present(
      MAIL_RECEIPTS.find((s) => s.bucket === 'inbox'),
      'The inbox mail receipt',
    );
    const [rule] = resourcesOfType(synth, 'AWS::SES::ReceiptRule');
    const props = rule?.resource.Properties?.Rule;
    if (!isRecord(props) || !Array.isArray(props.Actions)) throw new Error('no receipt rule');
    const [action] = props.Actions.filter(isRecord);
    const s3 = isRecord(action?.S3Action) ? action.S3Action : {};
    const [topic] = referencedResources(synth, rule?.stack ?? '', s3.TopicArn);
    expect(topic?.resource.Type).toBe('AWS::SNS::Topic');

    const subscriptions = resourcesOfType(synth, 'AWS::SNS::Subscription');
    expect(subscriptions).toHaveLength(1);
    const [subscription] = subscriptions;
    expect(subscription?.resource.Properties).toMatchObject({ Protocol: 'sqs', RawMessageDelivery: true });
    const [subscribed] = referencedResources(
      synth,
      subscription?.stack ?? '',
      subscription?.resource.Properties?.TopicArn,
    );
    expect(subscribed?.logicalId).toBe(topic?.logicalId);
    const [queue] = referencedResources(
      synth,
      subscription?.stack ?? '',
      subscription?.resource.Properties?.Endpoint,
    );
    expect(queue && tag(queue.resource, 'voltfolio:queue')).toBe(intake.queue);

    const publishers = resourcesOfType(synth, 'AWS::SNS::TopicPolicy').flatMap((p) => {
      const doc = p.resource.Properties?.PolicyDocument;
      return (isRecord(doc) && Array.isArray(doc.Statement) ? doc.Statement : []).filter(isRecord);
    });
    expect(publishers).toContainEqual(
      expect.objectContaining({ Action: 'sns:Publish', Principal: { Service: 'ses.amazonaws.com' } }),
    );
  });

  it('verifies the sender domain from context for sending', () => {
    const [identity] = resourcesOfType(synth, 'AWS::SES::EmailIdentity');
    expect(identity?.resource.Properties?.EmailIdentity).toBe(cdkJsonContext()['voltfolio:mailSenderDomain']);
  });
});
