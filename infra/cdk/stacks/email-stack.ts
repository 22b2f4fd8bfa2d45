import { Aws, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { EmailIdentity, Identity, ReceiptRuleSet, TlsPolicy } from 'aws-cdk-lib/aws-ses';
import { S3 } from 'aws-cdk-lib/aws-ses-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { QueueName } from '../../../shared/system/functions.ts';
import type { DeployContext } from '../context.ts';
import type { SystemDecl } from '../system.ts';

/** The queue whose mail receipt declaration tells where received mail has to be written. */
export const MAIL_INTAKE_QUEUE: QueueName = 'email-intake';

export interface EmailStackProps extends StackProps {
  system: SystemDecl;
  inbox: IBucket;
  context: Pick<DeployContext, 'mailCaptureDomain' | 'mailSenderDomain'>;
}

/**
 * Mail in and out: SES receives the capture domain's mail into the inbox bucket and publishes its receipt
 * (the stored object and the envelope's recipients) to a topic the e-mail intake queue subscribes to, and
 * sends from the sender domain.
 */
export class EmailStack extends Stack {
  readonly ruleSet: ReceiptRuleSet;
  readonly sender: EmailIdentity;
  /** SES's receipt notifications for the stored mail. */
  readonly receipts: Topic;
  private readonly intakeQueue: QueueName;

  constructor(scope: Construct, id: string, props: EmailStackProps) {
    super(scope, id, props);
    const intake = props.system.mailReceipts.find(
      (s) => s.bucket === 'inbox' && s.queue === MAIL_INTAKE_QUEUE,
    );
    if (!intake) throw new Error(`No mail receipt for ${MAIL_INTAKE_QUEUE} on the inbox bucket is declared`);
    this.intakeQueue = intake.queue;

    this.receipts = new Topic(this, 'MailReceipts', { enforceSSL: true });
    this.receipts.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.receipts.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    );

    this.ruleSet = new ReceiptRuleSet(this, 'ReceiptRules');
    this.ruleSet.addRule('Capture', {
      recipients: [props.context.mailCaptureDomain],
      scanEnabled: true,
      tlsPolicy: TlsPolicy.REQUIRE,
      actions: [new S3({ bucket: props.inbox, objectKeyPrefix: intake.prefix, topic: this.receipts })],
    });

    this.sender = new EmailIdentity(this, 'Sender', {
      identity: Identity.domain(props.context.mailSenderDomain),
    });

    // CloudFormation cannot activate a rule set; `aws ses set-active-receipt-rule-set` does, once.
    new CfnOutput(this, 'ReceiptRuleSetName', { value: this.ruleSet.receiptRuleSetName });
  }

  /**
   * The intake queue hears of each stored mail through the receipt, delivered raw (the SES notification
   * itself, not wrapped by SNS). The subscription lives with the queue, whose stack already depends on this one.
   */
  deliverReceiptsTo(queues: Partial<Record<QueueName, IQueue>>): void {
    const queue = queues[this.intakeQueue];
    if (!queue) throw new Error(`The ${this.intakeQueue} queue is not declared`);
    this.receipts.addSubscription(new SqsSubscription(queue, { rawMessageDelivery: true }));
  }
}
