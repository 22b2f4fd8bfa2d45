/**
 * `npm run replay -- <queue>`: moves the messages kept in a queue's dead-letter queue back to the queue,
 * so that work which failed (a document Textract could not reach, a worker fixed since) is done again.
 * Each message is sent before it is deleted, so an interruption can repeat a message but never lose one;
 * the workers are idempotent, so a repeat is harmless.
 *
 * Against the local stack it needs nothing; in AWS set QUEUE_URL_<QUEUE> and QUEUE_URL_<QUEUE>_DLQ
 * (as the functions have them) and the usual AWS credentials.
 */
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { QUEUES, type QueueName } from '../../shared/system/functions.ts';
import { deadLetterQueueName, envSuffix, LOCAL_REGION, localQueueUrl } from '../local/environment.ts';

const queue = process.argv[2] as QueueName | undefined;
if (!queue || !QUEUES.includes(queue)) {
  console.error(`Usage: npm run replay -- <queue>, where <queue> is one of: ${QUEUES.join(', ')}`);
  process.exit(2);
}
const limit = Number(process.argv[3] ?? Number.POSITIVE_INFINITY);

const localEndpoint = `http://127.0.0.1:${process.env.AWS_EMULATOR_PORT || 4566}`;
const target = process.env[`QUEUE_URL_${envSuffix(queue)}`] ?? localQueueUrl(localEndpoint, queue);
const dlq =
  process.env[`QUEUE_URL_${envSuffix(deadLetterQueueName(queue))}`] ??
  localQueueUrl(localEndpoint, deadLetterQueueName(queue));
const local = !process.env[`QUEUE_URL_${envSuffix(queue)}`];
const sqs = new SQSClient({
  region: process.env.AWS_REGION ?? LOCAL_REGION,
  ...(local
    ? { endpoint: localEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : {}),
});

let moved = 0;
while (moved < limit) {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: dlq,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 1,
      MessageAttributeNames: ['All'],
    }),
  );
  const messages = out.Messages ?? [];
  if (messages.length === 0) break;
  for (const m of messages) {
    if (moved >= limit) break;
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: target,
        MessageBody: String(m.Body),
        MessageAttributes: m.MessageAttributes,
      }),
    );
    await sqs.send(new DeleteMessageCommand({ QueueUrl: dlq, ReceiptHandle: String(m.ReceiptHandle) }));
    moved++;
  }
}
console.log(
  `Moved ${moved} message${moved === 1 ? '' : 's'} from ${deadLetterQueueName(queue)} back to ${queue}.`,
);
