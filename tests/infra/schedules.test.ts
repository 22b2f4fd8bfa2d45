import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULES } from '../../shared/system/pipeline.ts';
import { functionResource } from './support/grants.ts';
import {
  isRecord,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  synthesize,
  tag,
} from './support/synth.ts';

describe('schedules', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  it('has a schedules stack with one EventBridge rule per declared schedule', () => {
    const stack = synth.stacks.schedules;
    if (!stack) throw new Error('no schedules stack');
    const rules = resourcesOfType(synth, 'AWS::Events::Rule');
    expect(rules.map((r) => r.stack)).toEqual(SCHEDULES.map(() => stack.stackName));
    expect(rules.map((r) => r.resource.Properties?.ScheduleExpression).sort()).toEqual(
      SCHEDULES.map((s) => s.expression).sort(),
    );
  });

  it('puts the daily missing-bills message on its queue at 06:00 UTC', () => {
    const rule = resourcesOfType(synth, 'AWS::Events::Rule').find(
      (r) => r.resource.Properties?.ScheduleExpression === 'cron(0 6 * * ? *)',
    );
    if (!rule) throw new Error('no daily rule');
    expect(rule.resource.Properties?.State).toBe('ENABLED');
    const [target] = (rule.resource.Properties?.Targets ?? []) as Record<string, unknown>[];
    expect(JSON.parse(String(target?.Input))).toEqual({ check: 'missing-bills' });
    const [queue] = referencedResources(synth, rule.stack, target?.Arn);
    expect(queue?.resource.Type).toBe('AWS::SQS::Queue');
    expect(tag(queue?.resource ?? { Type: '' }, 'voltfolio:queue')).toBe('missing-bills');
    expect(isRecord(queue?.resource.Properties?.RedrivePolicy)).toBe(true);
    // EventBridge may send to that queue, and only from this stack's rules.
    const policies = resourcesOfType(synth, 'AWS::SQS::QueuePolicy').filter((p) =>
      referencedResources(synth, p.stack, p.resource.Properties?.Queues).some(
        (q) => q.logicalId === queue?.logicalId,
      ),
    );
    const statements = policies.flatMap((p) => {
      const doc = p.resource.Properties?.PolicyDocument;
      return isRecord(doc) && Array.isArray(doc.Statement)
        ? (doc.Statement as Record<string, unknown>[])
        : [];
    });
    const admitted = statements.find((s) => JSON.stringify(s.Principal).includes('events.amazonaws.com'));
    expect(JSON.stringify(admitted?.Condition)).toContain(`${synth.stacks.schedules?.stackName}-*`);
  });

  it('has the missing-bills worker consume that queue with table access only', () => {
    const fn = functionResource(synth, 'missing-bills');
    expect(fn.resource.Properties?.Runtime).toBe('nodejs24.x');
    const mapping = resourcesOfType(synth, 'AWS::Lambda::EventSourceMapping').find((m) =>
      referencedResources(synth, m.stack, m.resource.Properties?.FunctionName).some(
        (f) => f.logicalId === fn.logicalId,
      ),
    );
    const [queue] = referencedResources(
      synth,
      mapping?.stack ?? '',
      mapping?.resource.Properties?.EventSourceArn,
    );
    expect(tag(queue?.resource ?? { Type: '' }, 'voltfolio:queue')).toBe('missing-bills');
    expect(mapping?.resource.Properties?.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });
});
