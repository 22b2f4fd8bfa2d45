import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createLogger } from '../../lib/logger.ts';
import { notifyMissingBills } from '../../services/missing-bills-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'missing-bills' });

/**
 * The daily schedule's message: checks every company for missing bills as of the day it was sent.
 * A run that fails is retried from the queue; notices already given are not given again.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const message = JSON.parse(record.body) as { check?: unknown } | null;
      if (message?.check !== 'missing-bills') throw new Error('Not a missing-bills check');
      const sent = Number(record.attributes?.SentTimestamp);
      const today = new Date(Number.isFinite(sent) && sent > 0 ? sent : Date.now())
        .toISOString()
        .slice(0, 10);
      await notifyMissingBills(today, log.child({ messageId: record.messageId }));
    } catch (err) {
      log.error('missing-bills check failed', {
        messageId: record.messageId,
        error: err instanceof Error ? err.stack : String(err),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
