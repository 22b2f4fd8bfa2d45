import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { EmailIdentity, Identity, ReceiptRuleSet, TlsPolicy } from 'aws-cdk-lib/aws-ses';
import { S3 } from 'aws-cdk-lib/aws-ses-actions';
import type { Construct } from 'constructs';
import type { QueueName } from '../../../shared/system/functions.ts';
import type { DeployContext } from '../context.ts';
import type { SystemDecl } from '../system.ts';

/** The queue whose subscription on the inbox bucket tells where received mail has to be written. */
export const MAIL_INTAKE_QUEUE: QueueName = 'email-intake';

export interface EmailStackProps extends StackProps {
  system: SystemDecl;
  inbox: IBucket;
  context: Pick<DeployContext, 'mailCaptureDomain' | 'mailSenderDomain'>;
}

/**
 * Mail in and out: SES receives the capture domain's mail into the inbox bucket, where the e-mail intake
 * worker's subscription picks it up, and sends from the sender domain.
 */
export class EmailStack extends Stack {
  readonly ruleSet: ReceiptRuleSet;
  readonly sender: EmailIdentity;

  constructor(scope: Construct, id: string, props: EmailStackProps) {
    super(scope, id, props);
    const intake = props.system.subscriptions.find(
      (s) => s.bucket === 'inbox' && s.queue === MAIL_INTAKE_QUEUE,
    );
    if (!intake) throw new Error(`No subscription of ${MAIL_INTAKE_QUEUE} on the inbox bucket is declared`);

    this.ruleSet = new ReceiptRuleSet(this, 'ReceiptRules');
    this.ruleSet.addRule('Capture', {
      recipients: [props.context.mailCaptureDomain],
      scanEnabled: true,
      tlsPolicy: TlsPolicy.REQUIRE,
      actions: [new S3({ bucket: props.inbox, objectKeyPrefix: intake.prefix })],
    });

    this.sender = new EmailIdentity(this, 'Sender', {
      identity: Identity.domain(props.context.mailSenderDomain),
    });

    // CloudFormation cannot activate a rule set; `aws ses set-active-receipt-rule-set` does, once.
    new CfnOutput(this, 'ReceiptRuleSetName', { value: this.ruleSet.receiptRuleSetName });
  }
}
