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

/** The URL of a queue this function consumes, when its environment names it (as both stacks do). */
export function consumedQueueUrl(queue: QueueName): string | undefined {
  const value = process.env[`QUEUE_URL_${queue.toUpperCase().replaceAll('-', '_')}`];
  return value ? value : undefined;
}

const visibilityTimeouts = new Map<string, Promise<number>>();

/** The queue's visibility timeout in seconds, asked once per queue for the life of the function. */
export function queueVisibilityTimeout(queueUrl: string): Promise<number> {
  let known = visibilityTimeouts.get(queueUrl);
  if (!known) {
    known = sqs().then(async ({ lib, client }) => {
      const out = await client.send(
        new lib.GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }),
      );
      const seconds = Number(out.Attributes?.VisibilityTimeout);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`No visibility timeout for ${queueUrl}`);
      return seconds;
    });
    known.catch(() => visibilityTimeouts.delete(queueUrl));
    visibilityTimeouts.set(queueUrl, known);
  }
  return known;
}

/** Keeps received messages hidden for `seconds` more from now, ten to a request as SQS allows. */
export async function extendVisibility(
  queueUrl: string,
  receiptHandles: readonly string[],
  seconds: number,
): Promise<void> {
  const { lib, client } = await sqs();
  for (let i = 0; i < receiptHandles.length; i += 10) {
    const entries = receiptHandles
      .slice(i, i + 10)
      .map((handle, j) => ({ Id: String(j), ReceiptHandle: handle, VisibilityTimeout: seconds }));
    const out = await client.send(
      new lib.ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: entries }),
    );
    if (out.Failed && out.Failed.length > 0) {
      throw new Error(
        `Visibility not extended for ${out.Failed.length} message(s): ${out.Failed[0]?.Message}`,
      );
    }
  }
}

/** How many messages wait in a queue and are being worked on, as SQS approximates them. */
export interface QueueCounts {
  visible: number;
  inFlight: number;
}

/**
 * A queue's approximate counts by its environment name (`QUEUE_URL_<NAME>`, e.g. `capture-dlq`);
 * undefined when this function is not told the queue's URL.
 */
export async function queueCounts(name: string): Promise<QueueCounts | undefined> {
  const url = process.env[`QUEUE_URL_${name.toUpperCase().replaceAll('-', '_')}`];
  if (!url) return undefined;
  const { lib, client } = await sqs();
  const out = await client.send(
    new lib.GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return {
    visible: Number(out.Attributes?.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
  };
}
