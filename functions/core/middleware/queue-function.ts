import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueName } from '../../../shared/system/functions.ts';
import { QUEUE_MESSAGES, type QueueMessage } from '../../../shared/system/queue-messages.ts';
import { consumedQueueUrl, extendVisibility, queueVisibilityTimeout } from '../adapters/queue.ts';
import type { Logger } from '../lib/logger.ts';

/** What a body says, read with its queue's schema: the message, or why it is not one. */
export function parseQueueMessage<Q extends QueueName>(
  queue: Q,
  body: string,
): { ok: true; message: QueueMessage<Q> } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = QUEUE_MESSAGES[queue].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, message: parsed.data as QueueMessage<Q> };
}

/**
 * The entry of a queue function: each message parsed with its queue's schema and handled on its own,
 * with a logger naming it. A message that throws, or a body that is not one of the queue's messages, is
 * logged and reported back as failed, so SQS retries only that one and, after its last attempt, keeps it in
 * the dead-letter queue where it can be read and replayed: nothing is dropped unseen. The others of the
 * batch are done. While the batch is being handled its messages are kept hidden (see `visibilityHeartbeat`),
 * so the queue's visibility timeout can be short: a message whose worker crashed comes back soon.
 */
export function queueFunction<Q extends QueueName>(
  queue: Q,
  log: Logger,
  failure: string,
  handle: (message: QueueMessage<Q>, record: SQSRecord, log: Logger) => Promise<void>,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const heartbeat = visibilityHeartbeat(queue, event.Records, log);
    try {
      return await handleBatch(event);
    } finally {
      heartbeat.stop();
    }
  };

  async function handleBatch(event: SQSEvent): Promise<SQSBatchResponse> {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const recordLog = log.child({ messageId: record.messageId });
      const parsed = parseQueueMessage(queue, record.body);
      if (!parsed.ok) {
        recordLog.error(`not a ${queue} message`, { reason: parsed.reason, body: record.body.slice(0, 200) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
        continue;
      }
      try {
        await handle(parsed.message, record, recordLog);
      } catch (err) {
        recordLog.error(failure, { error: err instanceof Error ? err.stack : String(err) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  }
}

/**
 * Extends the visibility of a batch's messages every third of the queue's visibility timeout until the
 * handler returns, as long as the function lives. A worker that dies stops the heartbeat with it, so its
 * messages are received again one visibility timeout later instead of after the longest a document may
 * take. Without the queue's URL in the environment (a handler called directly) there is no heartbeat; a
 * failed extension is logged and the work goes on, since the worst outcome is a repeated, idempotent run.
 */
export function visibilityHeartbeat(
  queue: QueueName,
  records: readonly SQSRecord[],
  log: Logger,
): { stop(): void } {
  const queueUrl = consumedQueueUrl(queue);
  const handles = records.flatMap((r) =>
    typeof r.receiptHandle === 'string' && r.receiptHandle.length > 0 ? [r.receiptHandle] : [],
  );
  if (!queueUrl || handles.length === 0) return { stop: () => {} };
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const beat = (seconds: number) => {
    timer = setTimeout(
      () => {
        if (stopped) return;
        extendVisibility(queueUrl, handles, seconds)
          .catch((err: unknown) => log.warn('visibility not extended', { queue, error: String(err) }))
          .finally(() => {
            if (!stopped) beat(seconds);
          });
      },
      Math.max(200, (seconds * 1000) / 3),
    );
    timer.unref?.();
  };
  queueVisibilityTimeout(queueUrl).then(
    (seconds) => {
      if (!stopped) beat(seconds);
    },
    (err: unknown) => log.warn('visibility timeout unknown, no heartbeat', { queue, error: String(err) }),
  );
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
