import {
  DeleteMessageBatchCommand,
  type Message,
  type MessageAttributeValue,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { QueueDecl } from '../../shared/system/functions.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import { LOCAL_REGION, localQueueUrl, queueArn } from './environment.ts';
import { type FunctionLoad, invoke } from './lambda.ts';
import type { MessagingEmulator } from './messaging.ts';
import type { Log } from './options.ts';

export interface QueuePollers {
  /** Queues that a consumer is polling. */
  polled(): string[];
  /** No handler running right now. */
  idle(): boolean;
  stop(): Promise<void>;
}

/** Short long-polls, so that stopping never waits long; the emulator answers as soon as a message arrives. */
const WAIT_SECONDS = 1;

/**
 * How many readers a queue has locally: its declaration's `localReaders`, or LOCAL_QUEUE_READERS_<QUEUE>
 * (the queue's name in capitals, dashes as underscores) when set to a whole number from 1 to 32.
 */
export function readersOf(decl: QueueDecl, env: NodeJS.ProcessEnv = process.env): number {
  const given = env[`LOCAL_QUEUE_READERS_${decl.name.toUpperCase().replaceAll('-', '_')}`];
  const n = given === undefined ? (decl.localReaders ?? 1) : Number(given);
  return Number.isInteger(n) && n >= 1 && n <= 32 ? n : 1;
}

function lambdaAttributes(attrs: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, a] of Object.entries(attrs ?? {})) {
    out[name] = {
      dataType: a.DataType ?? 'String',
      ...(a.StringValue !== undefined ? { stringValue: a.StringValue } : {}),
      ...(a.BinaryValue !== undefined ? { binaryValue: Buffer.from(a.BinaryValue).toString('base64') } : {}),
      stringListValues: a.StringListValues ?? [],
      binaryListValues: (a.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
    };
  }
  return out;
}

/** The record Lambda's SQS event source hands to the function. */
export function sqsRecord(message: Message, queueName: string): SQSRecord {
  const a = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: lambdaAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn(queueName),
    awsRegion: LOCAL_REGION,
  };
}

/**
 * Which messages to delete after the handler answered, as Lambda does with ReportBatchItemFailures: all but
 * the reported ones; none when the handler threw or reported an id that is not in the batch.
 */
export function messagesToDelete(
  records: readonly SQSRecord[],
  outcome: { result?: unknown; error?: unknown },
) {
  if (outcome.error !== undefined) return [];
  const failures = (outcome.result as { batchItemFailures?: unknown } | null | undefined)?.batchItemFailures;
  if (failures === undefined || failures === null) return [...records];
  if (!Array.isArray(failures)) return [];
  const ids = new Set(records.map((r) => r.messageId));
  const failed = new Set<string>();
  for (const f of failures) {
    const id = (f as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !ids.has(id)) return [];
    failed.add(id);
  }
  return records.filter((r) => !failed.has(r.messageId));
}

/**
 * Lambda's SQS event source for each declared queue: long-poll, invoke the consumer with a batch, delete
 * what succeeded; a queue with several readers has that many batches in hand at once. Failed messages stay invisible until their visibility timeout ends and are received
 * again; after maxReceiveCount receives the queue's redrive policy moves them to the dead-letter queue.
 */
export function startQueuePollers(
  messaging: MessagingEmulator,
  functions: FunctionLoad,
  log: Log,
  only?: (decl: QueueDecl) => boolean,
): QueuePollers {
  let stopped = false;
  let running = 0;
  const polled: string[] = [];

  const pollOnce = async (decl: QueueDecl, queueUrl: string) => {
    const fn = functions.loaded.get(decl.consumer);
    if (!fn) return;
    const out = await messaging.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(decl.batchSize, 10),
        WaitTimeSeconds: WAIT_SECONDS,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) return;
    running++;
    try {
      const records = messages.map((m) => sqsRecord(m, decl.name));
      const event: SQSEvent = { Records: records };
      const outcome: { result?: unknown; error?: unknown } = {};
      try {
        outcome.result = await invoke(fn, event);
      } catch (err) {
        outcome.error = err;
        log('queue batch failed', { queue: decl.name, messages: records.length, error: String(err) });
      }
      const done = messagesToDelete(records, outcome);
      if (done.length > 0) {
        await messaging.sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
          }),
        );
      }
      if (done.length < records.length) {
        log('queue messages left for retry', { queue: decl.name, failed: records.length - done.length });
      }
    } finally {
      running--;
    }
  };

  const loops = QUEUE_DECLS.filter((decl) => (only ? only(decl) : true))
    .filter((decl) => functions.loaded.has(decl.consumer))
    .flatMap((decl) => {
      polled.push(decl.name);
      // Each reader receives and handles its own batch, so up to that many are handled at once.
      return Array.from({ length: readersOf(decl) }, () => decl);
    })
    .map(async (decl) => {
      const queueUrl = localQueueUrl(messaging.endpoint, decl.name);
      while (!stopped) {
        try {
          await pollOnce(decl, queueUrl);
        } catch (err) {
          if (stopped) break;
          log('queue poll failed', { queue: decl.name, error: String(err) });
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    });

  return {
    polled: () => [...polled],
    idle: () => running === 0,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
