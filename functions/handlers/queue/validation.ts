import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { validateStoredInvoice } from '../../invoices/validation-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'validation' });

/** Messages name one invoice each: `{ companyId, invoiceId }`, sent by capture and by the API. */
export const handler = queueFunction(log, 'validation failed', async (record, recordLog) => {
  const body = JSON.parse(record.body) as { companyId?: unknown; invoiceId?: unknown };
  if (typeof body.companyId !== 'string' || typeof body.invoiceId !== 'string') {
    // Retrying cannot fix a message that names nothing; say so and let it go.
    recordLog.error('validation message names no invoice', { body: record.body.slice(0, 200) });
    return;
  }
  await validateStoredInvoice(body.companyId, body.invoiceId, recordLog);
});
