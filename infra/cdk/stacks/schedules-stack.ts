import { Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { QueueName } from '../../../shared/system/functions.ts';
import { pascal, type SystemDecl } from '../system.ts';

export interface SchedulesStackProps extends StackProps {
  system: SystemDecl;
  queues: Partial<Record<QueueName, IQueue>>;
}

/**
 * Timers: each declared schedule puts its message on its queue. Rules are named after this stack, which
 * is how the pipeline stack's queue policies admit them.
 */
export class SchedulesStack extends Stack {
  readonly rules: Rule[] = [];

  constructor(scope: Construct, id: string, props: SchedulesStackProps) {
    super(scope, id, props);
    for (const decl of props.system.schedules) {
      const queue = props.queues[decl.queue];
      if (!queue) throw new Error(`Schedule ${decl.name} targets queue ${decl.queue}, which is not declared`);
      // Imported by ARN so the target does not edit the queue's policy from here (see PipelineStack).
      const target = Queue.fromQueueAttributes(this, `${pascal(decl.name)}Queue`, {
        queueArn: queue.queueArn,
        queueUrl: queue.queueUrl,
        queueName: queue.queueName,
      });
      const rule = new Rule(this, `${pascal(decl.name)}Schedule`, {
        ruleName: `${this.stackName}-${decl.name}`.slice(0, 64),
        description: `Voltfolio schedule ${decl.name}`,
        schedule: Schedule.expression(decl.expression),
        targets: [new SqsQueue(target, { message: RuleTargetInput.fromObject(decl.message) })],
      });
      this.rules.push(rule);
    }
  }
}
