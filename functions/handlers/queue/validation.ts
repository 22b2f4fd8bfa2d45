import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createLogger } from '../../lib/logger.ts';
import { validateStoredInvoice } from '../../services/validation-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'validation' });

/** Messages name one invoice each: `{ companyId, invoiceId }`, sent by capture and by the API. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const rlog = log.child({ messageId: record.messageId });
    try {
      const body = JSON.parse(record.body) as { companyId?: unknown; invoiceId?: unknown };
      if (typeof body.companyId !== 'string' || typeof body.invoiceId !== 'string') {
        // Retrying cannot fix a message that names nothing; say so and let it go.
        rlog.error('validation message names no invoice', { body: record.body.slice(0, 200) });
        continue;
      }
      await validateStoredInvoice(body.companyId, body.invoiceId, rlog);
    } catch (err) {
      rlog.error('validation failed', { error: err instanceof Error ? err.stack : String(err) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
