import { createLogger } from '../../core/lib/logger.ts';
import { queueFunction } from '../../core/middleware/queue-function.ts';
import { validateStoredInvoice } from '../../invoices/validation-service.ts';

const log = createLogger({ service: 'voltfolio', fn: 'validation' });

/** Messages name one invoice each: `{ companyId, invoiceId }`, sent by capture and by the API. */
export const handler = queueFunction(
  'validation',
  log,
  'validation failed',
  async (message, _record, rlog) => {
    await validateStoredInvoice(message.companyId, message.invoiceId, rlog);
  },
);
