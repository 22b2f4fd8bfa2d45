import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Logger } from '../lib/logger.ts';

/**
 * The entry of a queue function: each message handled on its own, with a logger naming it. A message that
 * throws is logged and reported back as failed, so SQS retries only that one and, after its last
 * attempt, keeps it in the dead-letter queue; the others of the batch are done.
 */
export function queueFunction(
  log: Logger,
  failure: string,
  handle: (record: SQSRecord, log: Logger) => Promise<void>,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const recordLog = log.child({ messageId: record.messageId });
      try {
        await handle(record, recordLog);
      } catch (err) {
        recordLog.error(failure, { error: err instanceof Error ? err.stack : String(err) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}
