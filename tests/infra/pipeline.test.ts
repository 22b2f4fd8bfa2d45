import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemDecl } from '../../infra/cdk/system.ts';
import { QUEUES, type ScheduleDecl } from '../../shared/system/functions.ts';
import { QUEUE_DECLS, SCHEDULES, SUBSCRIPTIONS } from '../../shared/system/pipeline.ts';
import {
  isRecord,
  type Located,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  someResourcesOfType,
  synthesize,
  tag,
} from './support/synth.ts';

const queueNamed = (synth: Synthesized, name: string): Located => {
  const found = resourcesOfType(synth, 'AWS::SQS::Queue').find(
    (q) => tag(q.resource, 'voltfolio:queue') === name,
  );
  if (!found) throw new Error(`no queue ${name}`);
  return found;
};

const policyStatementsOf = (synth: Synthesized, queue: Located): Record<string, unknown>[] =>
  resourcesOfType(synth, 'AWS::SQS::QueuePolicy')
    .filter((p) =>
      referencedResources(synth, p.stack, p.resource.Properties?.Queues).some(
        (q) => q.logicalId === queue.logicalId,
      ),
    )
    .flatMap((p) => {
      const doc = p.resource.Properties?.PolicyDocument;
      return isRecord(doc) && Array.isArray(doc.Statement) ? doc.Statement.filter(isRecord) : [];
    });

describe('queues and workers', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  const deadLetterTargets = () =>
    new Set(
      resourcesOfType(synth, 'AWS::SQS::Queue').flatMap((q) => {
        const redrive = q.resource.Properties?.RedrivePolicy;
        return isRecord(redrive)
          ? referencedResources(synth, q.stack, redrive.deadLetterTargetArn).map((t) => t.logicalId)
          : [];
      }),
    );

  it('gives every queue that is not a dead-letter queue a redrive policy to one', () => {
    const dlqs = deadLetterTargets();
    const queues = resourcesOfType(synth, 'AWS::SQS::Queue').filter((q) => !dlqs.has(q.logicalId));
    expect(queues.length).toBe(QUEUE_DECLS.length);
    for (const queue of queues) {
      const redrive = queue.resource.Properties?.RedrivePolicy;
      expect(isRecord(redrive), queue.logicalId).toBe(true);
      if (!isRecord(redrive)) continue;
      const [dlq] = referencedResources(synth, queue.stack, redrive.deadLetterTargetArn);
      expect(dlq?.resource.Type).toBe('AWS::SQS::Queue');
      expect(dlq?.resource.Properties?.RedrivePolicy, 'a DLQ redrives nowhere').toBeUndefined();
      expect(dlq?.resource.Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    }
  });

  it('sizes each queue as declared and encrypts every queue', () => {
    for (const decl of QUEUE_DECLS) {
      const props = queueNamed(synth, decl.name).resource.Properties ?? {};
      expect(props.VisibilityTimeout).toBe(decl.visibilityTimeoutSeconds);
      expect(isRecord(props.RedrivePolicy) && props.RedrivePolicy.maxReceiveCount).toBe(decl.maxReceiveCount);
    }
    for (const queue of someResourcesOfType(synth, 'AWS::SQS::Queue')) {
      expect(queue.resource.Properties?.SqsManagedSseEnabled, queue.logicalId).toBe(true);
    }
  });

  it('feeds each queue to its consumer in declared batches that report item failures', () => {
    const mappings = resourcesOfType(synth, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(QUEUE_DECLS.length);
    for (const mapping of mappings) {
      expect(mapping.resource.Properties?.FunctionResponseTypes, mapping.logicalId).toEqual([
        'ReportBatchItemFailures',
      ]);
    }
    for (const decl of QUEUE_DECLS) {
      const mapping = mappings.find((m) =>
        referencedResources(synth, m.stack, m.resource.Properties?.EventSourceArn).some(
          (q) => tag(q.resource, 'voltfolio:queue') === decl.name,
        ),
      );
      const [fn] = referencedResources(
        synth,
        mapping?.stack ?? '',
        mapping?.resource.Properties?.FunctionName,
      );
      expect(fn && tag(fn.resource, 'voltfolio:function'), decl.name).toBe(decl.consumer);
      expect(mapping?.resource.Properties?.BatchSize, decl.name).toBe(decl.batchSize);
    }
  });

  it('sends object-created events under each subscribed prefix to its queue', () => {
    const notifications = resourcesOfType(synth, 'Custom::S3BucketNotifications');
    for (const sub of SUBSCRIPTIONS) {
      const configs = notifications.flatMap((n) => {
        const [bucket] = referencedResources(synth, n.stack, n.resource.Properties?.BucketName);
        if (!bucket || tag(bucket.resource, 'voltfolio:bucket') !== sub.bucket) return [];
        const config = n.resource.Properties?.NotificationConfiguration;
        const queues =
          isRecord(config) && Array.isArray(config.QueueConfigurations) ? config.QueueConfigurations : [];
        return queues.filter(isRecord).map((q) => ({ stack: n.stack, q }));
      });
      const match = configs.find(
        ({ stack, q }) =>
          referencedResources(synth, stack, q.QueueArn).some(
            (t) => tag(t.resource, 'voltfolio:queue') === sub.queue,
          ) &&
          JSON.stringify(q.Filter) ===
            JSON.stringify({ Key: { FilterRules: [{ Name: 'prefix', Value: sub.prefix }] } }),
      );
      expect(match?.q.Events, `${sub.bucket}/${sub.prefix}`).toEqual(['s3:ObjectCreated:*']);

      const queue = queueNamed(synth, sub.queue);
      const admitsBucket = policyStatementsOf(synth, queue).some(
        (s) =>
          s.Effect === 'Allow' &&
          JSON.stringify(s.Principal) === JSON.stringify({ Service: 's3.amazonaws.com' }) &&
          referencedResources(synth, queue.stack, s.Condition).some(
            (b) => tag(b.resource, 'voltfolio:bucket') === sub.bucket,
          ),
      );
      expect(admitsBucket, `${sub.queue} admits ${sub.bucket}`).toBe(true);
    }
  });

  it('makes a schedules stack only when schedules are declared', () => {
    expect(synth.stacks.schedules === undefined).toBe(SCHEDULES.length === 0);
  });
});

describe('schedules', () => {
  const schedule: ScheduleDecl = {
    name: 'nightly-digest',
    expression: 'rate(1 day)',
    queue: QUEUES[0],
    message: { kind: 'digest', scope: 'all' },
  };
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ system: { ...systemDecl(), schedules: [schedule] } });
  });
  afterAll(() => synth?.cleanup());

  it('puts the declared message on the declared queue on schedule', () => {
    const rules = resourcesOfType(synth, 'AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    const [rule] = rules;
    const props = rule?.resource.Properties ?? {};
    expect(props.ScheduleExpression).toBe(schedule.expression);
    expect(props.State).toBe('ENABLED');
    const targets = Array.isArray(props.Targets) ? props.Targets.filter(isRecord) : [];
    expect(targets).toHaveLength(1);
    const [target] = targets;
    expect(JSON.parse(String(target?.Input))).toEqual(schedule.message);
    const queues = referencedResources(synth, rule?.stack ?? '', target?.Arn);
    expect(queues.map((q) => tag(q.resource, 'voltfolio:queue'))).toEqual([schedule.queue]);
  });

  it('admits the schedule rule to the queue policy', () => {
    const [rule] = resourcesOfType(synth, 'AWS::Events::Rule');
    const ruleName = String(rule?.resource.Properties?.Name);
    const statement = policyStatementsOf(synth, queueNamed(synth, schedule.queue)).find(
      (s) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'events.amazonaws.com' }),
    );
    expect(statement?.Action).toContain('sqs:SendMessage');
    const pattern = JSON.stringify(statement?.Condition);
    const admitted = /rule\/([^"*]+)\*/.exec(pattern)?.[1];
    expect(admitted).toBeDefined();
    expect(ruleName.startsWith(admitted ?? '\0')).toBe(true);
  });
});
