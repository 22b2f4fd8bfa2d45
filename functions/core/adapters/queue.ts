import type { QueueName } from '../../../shared/system/functions.ts';
import type { QueueMessage } from '../../../shared/system/queue-messages.ts';
import { config, queueUrl } from '../config.ts';
import { onFirstUse } from './on-first-use.ts';

// Loaded on first use: most functions that may send never do on a given request.
const sqs = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-sqs');
  return { lib, client: new lib.SQSClient({ region: config().region }) };
});

/** Sends messages to one of the declared queues, ten to a request as SQS allows. */
export async function sendToQueue<Q extends QueueName>(
  queue: Q,
  bodies: readonly QueueMessage<Q>[],
): Promise<void> {
  if (bodies.length === 0) return;
  const { lib, client } = await sqs();
  const url = queueUrl(queue);
  for (let i = 0; i < bodies.length; i += 10) {
    const entries = bodies
      .slice(i, i + 10)
      .map((b, j) => ({ Id: String(j), MessageBody: JSON.stringify(b) }));
    const out = await client.send(new lib.SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
    if (out.Failed && out.Failed.length > 0) {
      throw new Error(
        `The ${queue} queue refused ${out.Failed.length} message(s): ${out.Failed[0]?.Message}`,
      );
    }
  }
}
