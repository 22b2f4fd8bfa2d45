import { PutObjectCommand } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailReceipt } from '../../infra/local/smtp-inbox.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
const intake = QUEUE_DECLS.find((q) => q.name === 'email-intake');

// A one-second visibility timeout makes each retry come round in a second instead of six minutes.
beforeAll(async () => {
  local = await startLocalStack({ visibilityTimeoutSeconds: 1 });
});
afterAll(() => local?.stop());

async function counts(queueUrl: string) {
  const out = await local.stack.messaging.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }),
  );
  return {
    visible: Number(out.Attributes?.ApproximateNumberOfMessages),
    inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible),
  };
}

describe('queue consumers', () => {
  it("consume SES's receipt for a stored mail and delete it from the queue", async () => {
    await local.stack.messaging.s3.send(
      new PutObjectCommand({
        Bucket: local.env.BUCKET_INBOX,
        Key: 'mail/2026/03/04/nobody.eml',
        Body: 'From: a@example.com\r\nTo: nobody@nowhere.example\r\nSubject: hi\r\n\r\nhello',
      }),
    );
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: local.env.QUEUE_URL_EMAIL_INTAKE,
        MessageBody: JSON.stringify(
          mailReceipt({
            messageId: 'nobody',
            source: 'a@example.com',
            recipients: ['nobody@nowhere.example'],
            bucket: local.env.BUCKET_INBOX as string,
            key: 'mail/2026/03/04/nobody.eml',
            now: new Date(),
          }),
        ),
      }),
    );
    await local.drainQueues();
    expect(await counts(local.env.QUEUE_URL_EMAIL_INTAKE as string)).toEqual({ visible: 0, inFlight: 0 });
    expect(await counts(local.env.QUEUE_URL_EMAIL_INTAKE_DLQ as string)).toEqual({ visible: 0, inFlight: 0 });
  });

  it('retry a message whose consumer fails, then move it to the dead-letter queue after maxReceiveCount', async () => {
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({ QueueUrl: local.env.QUEUE_URL_EMAIL_INTAKE, MessageBody: 'not a receipt' }),
    );
    await local.drainQueues(20_000);

    const dead = await local.stack.messaging.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: local.env.QUEUE_URL_EMAIL_INTAKE_DLQ,
        MaxNumberOfMessages: 10,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    expect(dead.Messages?.map((m) => m.Body)).toEqual(['not a receipt']);
    // Received (and failed) maxReceiveCount times before the next receive moved it.
    expect(Number(dead.Messages?.[0]?.Attributes?.ApproximateReceiveCount)).toBeGreaterThanOrEqual(
      intake?.maxReceiveCount ?? 3,
    );
    expect(await counts(local.env.QUEUE_URL_EMAIL_INTAKE as string)).toEqual({ visible: 0, inFlight: 0 });
  });
});
