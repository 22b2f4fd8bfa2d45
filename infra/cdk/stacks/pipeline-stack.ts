import { Duration, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Bucket, EventType, type IBucket } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { BucketName, FunctionName, QueueName } from '../../../shared/system/functions.ts';
import {
  DeclaredFunction,
  type FunctionResources,
  type FunctionSettings,
} from '../constructs/declared-function.ts';
import { functionDecl, functionsOfKind, pascal, type SystemDecl, upperSnake } from '../system.ts';

export const DLQ_RETENTION = Duration.days(14);

export interface PipelineStackProps extends StackProps {
  system: SystemDecl;
  resources: Omit<FunctionResources, 'queues'>;
  settings: FunctionSettings;
  /**
   * Name of the stack holding the schedule rules. Its rules are named `<stack>-<schedule>`, so the queue
   * policy can admit them without a reference back to that stack (which would make a cycle).
   */
  schedulesStackName: string;
}

/** Queues with their dead-letter queues, the workers that consume them, and the S3 events feeding them. */
export class PipelineStack extends Stack {
  readonly queues: Partial<Record<QueueName, Queue>> = {};
  readonly deadLetterQueues: Partial<Record<QueueName, Queue>> = {};
  readonly functions = new Map<FunctionName, DeclaredFunction>();

  constructor(scope: Construct, id: string, props: PipelineStackProps) {
    super(scope, id, props);
    const { system } = props;

    for (const decl of system.queues) {
      const consumer = functionDecl(system, decl.consumer);
      if (decl.visibilityTimeoutSeconds < consumer.timeoutSeconds) {
        throw new Error(
          `Queue ${decl.name}: visibility timeout ${decl.visibilityTimeoutSeconds}s is shorter than ` +
            `${consumer.name}'s timeout ${consumer.timeoutSeconds}s`,
        );
      }
      const dlq = new Queue(this, `${pascal(decl.name)}Dlq`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: DLQ_RETENTION,
      });
      Tags.of(dlq).add('voltfolio:queue', `${decl.name}-dlq`);
      const queue = new Queue(this, `${pascal(decl.name)}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(decl.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: dlq, maxReceiveCount: decl.maxReceiveCount },
      });
      Tags.of(queue).add('voltfolio:queue', decl.name);
      this.queues[decl.name] = queue;
      this.deadLetterQueues[decl.name] = dlq;
    }

    const resources: FunctionResources = { ...props.resources, queues: this.queues };
    for (const decl of functionsOfKind(system, 'worker')) {
      this.functions.set(
        decl.name,
        new DeclaredFunction(this, { decl, resources, settings: props.settings }),
      );
    }
    for (const decl of system.queues) {
      const consumer = this.functions.get(decl.consumer);
      const queue = this.queues[decl.name];
      if (!consumer || !queue)
        throw new Error(`Queue ${decl.name}: consumer ${decl.consumer} is not a worker`);
      consumer.fn.addEventSource(
        new SqsEventSource(queue, { batchSize: decl.batchSize, reportBatchItemFailures: true }),
      );
      // The consumer keeps the messages it works on hidden (ChangeMessageVisibility, which the event
      // source's grant includes), so it needs the queue's URL.
      consumer.fn.addEnvironment(`QUEUE_URL_${upperSnake(decl.name)}`, queue.queueUrl);
    }

    this.subscribe(props);
    this.admitSchedules(props);
  }

  /**
   * S3 events reach their queues. The buckets are referenced by name: configured on the bucket's own
   * stack, the notification and the queue policy would point at each other across stacks.
   */
  private subscribe(props: PipelineStackProps): void {
    const imported = new Map<BucketName, IBucket>();
    for (const sub of props.system.subscriptions) {
      const source = props.resources.buckets[sub.bucket];
      const queue = this.queues[sub.queue];
      if (!source || !queue)
        throw new Error(`Subscription ${sub.bucket}/${sub.prefix}: unknown bucket or queue`);
      let bucket = imported.get(sub.bucket);
      if (!bucket) {
        bucket = Bucket.fromBucketAttributes(this, `${pascal(sub.bucket)}BucketEvents`, {
          bucketName: source.bucketName,
          bucketArn: source.bucketArn,
        });
        imported.set(sub.bucket, bucket);
      }
      bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(queue), {
        prefix: sub.prefix,
      });
    }
  }

  private admitSchedules(props: PipelineStackProps): void {
    const targets = new Set(props.system.schedules.map((s) => s.queue));
    for (const name of targets) {
      const queue = this.queues[name];
      if (!queue) throw new Error(`A schedule targets queue ${name}, which is not declared`);
      queue.addToResourcePolicy(
        new PolicyStatement({
          principals: [new ServicePrincipal('events.amazonaws.com')],
          actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
          resources: [queue.queueArn],
          conditions: {
            ArnLike: {
              'aws:SourceArn': this.formatArn({
                service: 'events',
                resource: 'rule',
                resourceName: `${props.schedulesStackName}-*`,
              }),
            },
          },
        }),
      );
    }
  }
}
