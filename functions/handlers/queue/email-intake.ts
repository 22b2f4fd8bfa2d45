import { publishToCompany } from '../../core/adapters/live.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { s3ObjectsIn } from '../../core/lib/s3-event.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { processInboundEmail } from '../../invoices/email-intake-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'email-intake' });

/** Raw e-mails stored by SES receipt (or the local SMTP inbox) arrive as S3 events through SQS. */
export const handler = queueFunction(
  'email-intake',
  log,
  'email intake failed',
  async (message, _record, recordLog) => {
    for (const object of s3ObjectsIn(message)) {
      const result = await processInboundEmail(object.bucket, object.key, recordLog);
      if (result.companyId && result.status === 'accepted') {
        await publishToCompany(result.companyId, { type: 'email.received', keys: ['/emails'] }, log).catch(
          (err) => log.warn('live update failed', { error: String(err) }),
        );
      }
    }
  },
);
