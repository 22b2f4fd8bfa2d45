import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { type MessagingEmulator, startMessaging } from '../../infra/local/messaging.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('queues after the local stack is killed and started again', () => {
  it('hand the work that was under way to the next worker at once, not after the visibility timeout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voltfolio-messaging-'));
    dirs.push(dir);
    let messaging: MessagingEmulator = await startMessaging(dir, 0);
    const { QueueUrl } = await messaging.sqs.send(
      new CreateQueueCommand({ QueueName: 'imports', Attributes: { VisibilityTimeout: '900' } }),
    );
    await messaging.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'import 1' }));
    await messaging.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'import 2' }));
    const taken = await messaging.sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 1 }));
    expect(taken.Messages?.map((m) => m.Body)).toEqual(['import 1']);
    // The worker dies with the stack before it finishes: the message is never deleted.
    await messaging.stop();

    messaging = await startMessaging(dir, 0);
    try {
      const url = QueueUrl?.replace(/:\d+\//, `:${messaging.port}/`);
      const again = await messaging.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      expect(again.Messages?.map((m) => m.Body).sort()).toEqual(['import 1', 'import 2']);
    } finally {
      await messaging.stop();
    }
  });
});
