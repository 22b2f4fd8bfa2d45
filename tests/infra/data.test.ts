import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKETS } from '../../shared/system/functions.ts';
import { TABLE } from '../../shared/system/table.ts';
import {
  cdkJsonContext,
  isRecord,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  someResourcesOfType,
  synthesize,
  tag,
  templateOf,
} from './support/synth.ts';

describe('data', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  it('keeps one on-demand table with recovery and deletion protection', () => {
    const tables = resourcesOfType(synth, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [table] = tables;
    const props = table?.resource.Properties ?? {};
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.DeletionProtectionEnabled).toBe(true);
    expect(table?.resource.DeletionPolicy).toBe('Retain');
    expect(table?.resource.UpdateReplacePolicy).toBe('Retain');
  });

  it('builds the table keys and indexes from the table declaration', () => {
    templateOf(synth, synth.stacks.data.stackName).hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('keeps one KMS key for portal passwords, rotated yearly and kept when the stack goes', () => {
    const keys = resourcesOfType(synth, 'AWS::KMS::Key');
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(key?.stack).toBe(synth.stacks.data.stackName);
    expect(key?.resource.Properties?.EnableKeyRotation).toBe(true);
    expect(key?.resource.DeletionPolicy).toBe('Retain');
  });

  it('makes one bucket per declared bucket', () => {
    const names = resourcesOfType(synth, 'AWS::S3::Bucket').map((b) => tag(b.resource, 'voltfolio:bucket'));
    expect(names.sort()).toEqual([...BUCKETS].sort());
  });

  it('blocks all public access and encrypts every bucket', () => {
    for (const bucket of someResourcesOfType(synth, 'AWS::S3::Bucket')) {
      const props = bucket.resource.Properties ?? {};
      expect(props.PublicAccessBlockConfiguration, bucket.logicalId).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(props.BucketEncryption, bucket.logicalId).toEqual({
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      });
      expect(bucket.resource.DeletionPolicy, bucket.logicalId).toBe('Retain');
    }
  });

  it('refuses plain-HTTP requests to every bucket', () => {
    const buckets = someResourcesOfType(synth, 'AWS::S3::Bucket');
    const policies = resourcesOfType(synth, 'AWS::S3::BucketPolicy');
    for (const bucket of buckets) {
      const policy = policies.find((p) =>
        referencedResources(synth, p.stack, p.resource.Properties?.Bucket).some(
          (b) => b.logicalId === bucket.logicalId,
        ),
      );
      const doc = policy?.resource.Properties?.PolicyDocument;
      const statements = isRecord(doc) && Array.isArray(doc.Statement) ? doc.Statement : [];
      expect(statements, bucket.logicalId).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      );
    }
  });

  it('lets the app origins PUT and GET uploads and documents through presigned URLs, and nothing else', () => {
    const origins = cdkJsonContext()['voltfolio:appOrigins'];
    for (const bucket of someResourcesOfType(synth, 'AWS::S3::Bucket')) {
      const name = tag(bucket.resource, 'voltfolio:bucket');
      const cors = bucket.resource.Properties?.CorsConfiguration;
      if (name === 'uploads' || name === 'documents') {
        expect(cors, name).toEqual({
          CorsRules: [
            expect.objectContaining({
              AllowedOrigins: origins,
              AllowedMethods: expect.arrayContaining(['GET', 'PUT']),
              AllowedHeaders: ['*'],
              ExposedHeaders: ['ETag'],
            }),
          ],
        });
      } else {
        expect(cors, name).toBeUndefined();
      }
    }
  });

  it('takes the CORS origins from context', () => {
    const other = synthesize({ context: { 'voltfolio:appOrigins': 'https://app.example.com' } });
    try {
      templateOf(other, other.stacks.data.stackName).hasResourceProperties('AWS::S3::Bucket', {
        CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://app.example.com'] })] },
      });
    } finally {
      other.cleanup();
    }
  });
});
