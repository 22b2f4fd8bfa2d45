import type { SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '../../shared/system/functions.ts';
import { config, queueUrl } from '../config.ts';

let client: Promise<SQSClient> | undefined;

// Loaded on first use: most functions that may send never do on a given request.
function sqs(): Promise<SQSClient> {
  client ??= import('@aws-sdk/client-sqs').then(
    ({ SQSClient }) => new SQSClient({ region: config().region }),
  );
  return client;
}

/** Sends messages to one of the declared queues, ten to a request as SQS allows. */
export async function sendToQueue(
  queue: QueueName,
  bodies: readonly Record<string, unknown>[],
): Promise<void> {
  if (bodies.length === 0) return;
  const { SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
  const url = queueUrl(queue);
  for (let i = 0; i < bodies.length; i += 10) {
    const entries = bodies
      .slice(i, i + 10)
      .map((b, j) => ({ Id: String(j), MessageBody: JSON.stringify(b) }));
    const out = await (await sqs()).send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
    if (out.Failed && out.Failed.length > 0) {
      throw new Error(
        `The ${queue} queue refused ${out.Failed.length} message(s): ${out.Failed[0]?.Message}`,
      );
    }
  }
}
