import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { publishToCompany } from '../../adapters/live.ts';
import { createLogger } from '../../lib/logger.ts';
import { s3ObjectsOf } from '../../lib/s3-event.ts';
import { processInboundEmail } from '../../services/email-intake-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'email-intake' });

/** Raw e-mails stored by SES receipt (or the local SMTP inbox) arrive as S3 events through SQS. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      for (const object of s3ObjectsOf(record.body)) {
        const result = await processInboundEmail(
          object.bucket,
          object.key,
          log.child({ messageId: record.messageId }),
        );
        if (result.companyId && result.status === 'accepted') {
          await publishToCompany(result.companyId, { type: 'email.received', keys: ['/emails'] }, log).catch(
            (err) => log.warn('live update failed', { error: String(err) }),
          );
        }
      }
    } catch (err) {
      log.error('email intake failed', {
        messageId: record.messageId,
        error: err instanceof Error ? err.stack : String(err),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
