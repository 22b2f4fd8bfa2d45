import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upperSnake } from '../../infra/cdk/system.ts';
import { BUCKETS, FUNCTIONS, QUEUES } from '../../shared/system/functions.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import { functionResource } from './support/grants.ts';
import {
  cdkJsonContext,
  isRecord,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  synthesize,
  tag,
} from './support/synth.ts';

describe('Lambda functions', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  const environmentOf = (name: string): Record<string, unknown> => {
    const env = functionResource(synth, name).resource.Properties?.Environment;
    return isRecord(env) && isRecord(env.Variables) ? env.Variables : {};
  };
  const typesReferenced = (name: string, value: unknown) =>
    referencedResources(synth, functionResource(synth, name).stack, value).map((r) => r.resource.Type);

  it('runs every application Lambda on nodejs24.x and arm64', () => {
    const all = resourcesOfType(synth, 'AWS::Lambda::Function');
    const ours = all.filter((f) => tag(f.resource, 'voltfolio:function') !== undefined);
    expect(ours).toHaveLength(FUNCTIONS.length);
    for (const f of ours) {
      expect(f.resource.Properties?.Runtime, f.logicalId).toBe('nodejs24.x');
      expect(f.resource.Properties?.Architectures, f.logicalId).toEqual(['arm64']);
    }
    // The only other Lambdas are those CDK adds to configure S3 event notifications and to copy the SPA
    // into its bucket at deploy time.
    const deployers = resourcesOfType(synth, 'Custom::CDKBucketDeployment').flatMap((d) =>
      referencedResources(synth, d.stack, d.resource.Properties?.ServiceToken).map((r) => r.logicalId),
    );
    const others = all.filter((f) => !ours.includes(f) && !deployers.includes(f.logicalId));
    expect(all.length - ours.length - others.length).toBe(1);
    for (const f of others) {
      expect(String(f.resource.Properties?.Description)).toContain('Custom::S3BucketNotifications');
    }
  });

  it('deploys each declared function with its memory, timeout and bundled handler', () => {
    for (const decl of FUNCTIONS) {
      const props = functionResource(synth, decl.name).resource.Properties ?? {};
      expect(props.MemorySize, decl.name).toBe(decl.memoryMb);
      expect(props.Timeout, decl.name).toBe(decl.timeoutSeconds);
      expect(props.Handler, decl.name).toBe('index.handler');
      // Code comes from a zipped asset (the bundle folder), not inline source.
      expect(isRecord(props.Code) ? props.Code.S3Key : undefined, decl.name).toMatch(/^[0-9a-f]{64}\.zip$/);
    }
  });

  it('configures every function for Cognito, the table and the API base path', () => {
    for (const decl of FUNCTIONS) {
      const env = environmentOf(decl.name);
      expect(env.AUTH_PROVIDER, decl.name).toBe('cognito');
      expect(env.API_BASE_PATH, decl.name).toBe('/api');
      expect(typesReferenced(decl.name, env.COGNITO_USER_POOL_ID)).toEqual(['AWS::Cognito::UserPool']);
      expect(typesReferenced(decl.name, env.AUTH_CLIENT_ID)).toEqual(['AWS::Cognito::UserPoolClient']);
      expect(typesReferenced(decl.name, env.TABLE_NAME)).toEqual(['AWS::DynamoDB::Table']);
    }
  });

  it('names exactly the buckets, queues and live endpoint a function is granted, and the queues it consumes', () => {
    for (const decl of FUNCTIONS) {
      const env = environmentOf(decl.name);
      const fn = functionResource(synth, decl.name);
      for (const bucket of BUCKETS) {
        const value = env[`BUCKET_${upperSnake(bucket)}`];
        if (decl.grants.buckets?.[bucket]) {
          const [target] = referencedResources(synth, fn.stack, value);
          expect(target && tag(target.resource, 'voltfolio:bucket'), `${decl.name} ${bucket}`).toBe(bucket);
        } else {
          expect(value, `${decl.name} ${bucket}`).toBeUndefined();
        }
      }
      for (const queue of QUEUES) {
        const value = env[`QUEUE_URL_${upperSnake(queue)}`];
        // A consumer keeps its messages hidden while it works, for which it needs its queue's URL.
        const consumed = QUEUE_DECLS.some((q) => q.name === queue && q.consumer === decl.name);
        // The staff overview reads every queue's depth (tests/infra/grants.test.ts checks what it names).
        expect(value !== undefined, `${decl.name} ${queue}`).toBe(
          (decl.grants.queues?.includes(queue) ?? false) || consumed || decl.grants.queueDepths === true,
        );
      }
      const live = env.LIVE_ENDPOINT;
      expect(live !== undefined, `${decl.name} LIVE_ENDPOINT`).toBe(decl.grants.liveConnections === true);
      if (live !== undefined) {
        expect(JSON.stringify(live)).toMatch(/^\{"Fn::Join":\["",\["https:\/\/",.*"\/live"\]\]\}$/);
        expect(typesReferenced(decl.name, live)).toEqual(['AWS::ApiGatewayV2::Api']);
      }
    }
  });

  it('keeps each function log for the retention set in cdk.json', () => {
    const days = Number(cdkJsonContext()['voltfolio:logRetentionDays']);
    for (const decl of FUNCTIONS) {
      const fn = functionResource(synth, decl.name);
      const logging = fn.resource.Properties?.LoggingConfig;
      const [group] = referencedResources(synth, fn.stack, isRecord(logging) ? logging.LogGroup : undefined);
      expect(group?.resource.Type, decl.name).toBe('AWS::Logs::LogGroup');
      expect(group?.resource.Properties?.RetentionInDays, decl.name).toBe(days);
    }
  });
});
