import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { BucketName } from '../../../shared/system/functions.ts';
import { secureBucket } from '../constructs/secure-bucket.ts';
import type { SystemDecl } from '../system.ts';

/** The SPA bucket lives with its CloudFront distribution: its policy names the distribution. */
export const WEB_STACK_BUCKETS: readonly BucketName[] = ['web'];

/** Buckets the browser reads and writes directly, through presigned URLs. */
const BROWSER_BUCKETS: readonly BucketName[] = ['uploads', 'documents'];

export interface DataStackProps extends StackProps {
  system: SystemDecl;
  appOrigins: readonly string[];
}

/** State that outlives every deployment: the table and the private buckets. */
export class DataStack extends Stack {
  readonly table: Table;
  readonly buckets: Partial<Record<BucketName, Bucket>> = {};
  /** Seals the supplier-portal passwords companies store; only the functions declared for it may use it. */
  readonly portalSecretsKey: Key;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { table: decl } = props.system;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: decl.partitionKey, type: AttributeType.STRING },
      sortKey: { name: decl.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of decl.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }
    new CfnOutput(this, 'TableName', { value: this.table.tableName });

    // Retained: a deleted key would leave every stored portal password unreadable.
    this.portalSecretsKey = new Key(this, 'PortalSecretsKey', {
      description: 'Voltfolio supplier-portal passwords',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const name of props.system.buckets) {
      if (WEB_STACK_BUCKETS.includes(name)) continue;
      const bucket = secureBucket(this, name, {
        browserOrigins: BROWSER_BUCKETS.includes(name) ? props.appOrigins : undefined,
      });
      this.buckets[name] = bucket;
    }
  }
}
