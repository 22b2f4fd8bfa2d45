import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stage } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../web/lib/config.ts';
import {
  cdkJsonContext,
  isRecord,
  type Located,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  synthesize,
} from './support/synth.ts';

describe('the SPA deployment', () => {
  let synth: Synthesized;
  let deployment: Located;
  let props: Record<string, unknown>;
  /** config.json as staged, with the markers the deployment replaces by the other stacks' values. */
  let config: Record<string, unknown>;
  let markers: Record<string, unknown>;

  beforeAll(() => {
    synth = synthesize();
    const found = resourcesOfType(synth, 'Custom::CDKBucketDeployment');
    expect(found).toHaveLength(1);
    deployment = found[0] as Located;
    props = deployment.resource.Properties ?? {};
    const outdir = Stage.of(synth.stacks.web)?.outdir;
    if (!outdir) throw new Error('no assembly');
    const staged = readdirSync(outdir)
      .map((name) => join(outdir, name, 'config.json'))
      .filter((file) => existsSync(file));
    expect(staged).toHaveLength(1);
    config = JSON.parse(readFileSync(staged[0] as string, 'utf8')) as Record<string, unknown>;
    const all = (props.SourceMarkers as Record<string, unknown>[]).filter((m) => Object.keys(m).length > 0);
    markers = Object.assign({}, ...all) as Record<string, unknown>;
  });
  afterAll(() => synth?.cleanup());

  /** The resource types a config value is made from, through its markers. */
  const sourcesOf = (value: unknown) =>
    [...String(value).matchAll(/<<marker:0x[0-9a-f]+:\d+>>/g)].flatMap((m) =>
      referencedResources(synth, deployment.stack, markers[m[0]]).map((r) => r.resource.Type),
    );

  it('copies the built SPA and a config.json into the web bucket, then refreshes CloudFront', () => {
    expect(deployment.stack).toBe(synth.stacks.web.stackName);
    const [bucket] = referencedResources(synth, deployment.stack, props.DestinationBucketName);
    expect(bucket?.resource.Type).toBe('AWS::S3::Bucket');
    expect(bucket?.logicalId).toMatch(/^WebBucket/);
    const [distribution] = referencedResources(synth, deployment.stack, props.DistributionId);
    expect(distribution?.resource.Type).toBe('AWS::CloudFront::Distribution');
    expect(props.DistributionPaths).toEqual(['/*']);
    // Two sources: the SPA build and the generated config.json.
    expect(props.SourceObjectKeys).toHaveLength(2);
    expect(props.Prune).toBe(false);
  });

  it('points the SPA at Cognito, the API behind CloudFront and the WebSocket API', () => {
    expect(config.apiBase).toBe('/api');
    expect(sourcesOf(config.issuer)).toEqual(['AWS::Cognito::UserPool']);
    expect(sourcesOf(config.clientId)).toEqual(['AWS::Cognito::UserPoolClient']);
    expect(sourcesOf(config.wsUrl)).toContain('AWS::ApiGatewayV2::Api');
    expect(String(config.wsUrl)).toMatch(/^wss:\/\/.*\/live$/);
    expect(config.resource).toBeUndefined();
  });

  it('asks for the scopes sign-in and authenticator-app enrolment need', () => {
    expect(String(config.scope).split(' ').sort()).toEqual([
      'aws.cognito.signin.user.admin',
      'email',
      'openid',
      'profile',
    ]);
  });

  it("signs out through the hosted UI's /logout with the client id and the context's logout URL", () => {
    expect(String(config.endSessionEndpoint)).toMatch(/^https:\/\/.+\.amazoncognito\.com\/logout$/);
    expect(sourcesOf(config.endSessionEndpoint)).toEqual(['AWS::Cognito::UserPoolDomain']);
    const params = config.logoutParams;
    if (!isRecord(params)) throw new Error('no logoutParams');
    expect(sourcesOf(params.client_id)).toEqual(['AWS::Cognito::UserPoolClient']);
    expect(params.logout_uri).toBe((cdkJsonContext()['voltfolio:authLogoutUrls'] as string[])[0]);
  });

  it('is a configuration the SPA accepts once the values are filled in', () => {
    const filled = JSON.parse(JSON.stringify(config).replace(/<<marker:[^>]+>>/g, 'eu-west-2')) as unknown;
    const resolved = resolveConfig(filled, 'https://d111.cloudfront.net');
    expect(resolved.wsUrl).toMatch(/^wss:\/\/eu-west-2\.execute-api\./);
    expect(resolved.apiBase).toBe('https://d111.cloudfront.net/api');
    expect(resolved.logoutParams.logout_uri).toBe(
      (cdkJsonContext()['voltfolio:authLogoutUrls'] as string[])[0],
    );
  });
});
