import { publishToCompany } from '../../core/adapters/live.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { processInboundEmail } from '../../invoices/email-intake-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'email-intake' });

/** SES's receipt for each mail it stored (or the local SMTP inbox's), delivered raw through SQS. */
export const handler = queueFunction(
  'email-intake',
  log,
  'email intake failed',
  async (message, _record, recordLog) => {
    const { bucketName, objectKey } = message.receipt.action;
    const results = await processInboundEmail(
      {
        bucket: bucketName,
        key: objectKey,
        recipients: message.receipt.recipients,
        ...(message.mail.source !== undefined ? { envelopeFrom: message.mail.source } : {}),
        ...(message.receipt.dmarcVerdict ? { dmarcVerdict: message.receipt.dmarcVerdict.status } : {}),
      },
      recordLog,
    );
    for (const result of results) {
      if (result.companyId && result.status === 'accepted') {
        await publishToCompany(result.companyId, { type: 'email.received', keys: ['/emails'] }, log).catch(
          (err) => log.warn('live update failed', { error: String(err) }),
        );
      }
    }
  },
);
