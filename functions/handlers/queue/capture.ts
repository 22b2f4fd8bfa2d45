import type { QueueMessage } from '../../../shared/system/queue-messages.ts';
import { publishToCompany } from '../../core/adapters/live.ts';
import { bucketName } from '../../core/config.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { type S3ObjectRef, s3ObjectsIn } from '../../core/lib/s3-event.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { captureDocument } from '../../invoices/capture-service.ts';
import { getCapture } from '../../invoices/invoice-repository.ts';

const log = createLogger({ service: 'voltfolio', fn: 'capture' });

/** What a message names: an object S3 announced, or a capture restarted from the API. */
async function objectsOf(message: QueueMessage<'capture'>): Promise<S3ObjectRef[]> {
  if ('captureId' in message) {
    const capture = await getCapture(message.companyId, message.captureId);
    if (!capture?.key) return [];
    return [{ bucket: bucketName('uploads'), key: capture.key }];
  }
  return s3ObjectsIn(message);
}

/**
 * Invoice documents arrive as S3 object-created events through SQS, one to an invocation. A message
 * that throws is retried by SQS and, after its last attempt, kept in the dead-letter queue.
 */
export const handler = queueFunction('capture', log, 'capture failed', async (message, record, rlog) => {
  for (const object of await objectsOf(message)) {
    const outcome = await captureDocument(object.bucket, object.key, object.size, rlog, record.messageId);
    if (outcome.companyId && outcome.status !== 'skipped') {
      await publishToCompany(
        outcome.companyId,
        {
          type: 'invoice.captured',
          keys: ['/invoices', '/invoice-validation', ...outcome.invoiceIds.map((id) => `/invoices/${id}`)],
          data: { captureId: outcome.captureId, status: outcome.status, invoiceIds: outcome.invoiceIds },
        },
        rlog,
      ).catch((err) => rlog.warn('live update failed', { error: String(err) }));
    }
  }
});
