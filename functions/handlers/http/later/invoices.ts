import type { Operations } from '../../../core/middleware/api-context.ts';
import { INVOICE_IMPORT_OPERATIONS } from '../../../invoices/invoice-import-service.ts';
import { INVOICE_WRITE_OPERATIONS } from '../../../invoices/invoice-write-service.ts';

/** The invoices function's bill imports and generic bill writes, loaded on the first call of one. */
export const LATER_OPERATIONS: Operations = {
  ...INVOICE_IMPORT_OPERATIONS,
  ...INVOICE_WRITE_OPERATIONS,
};
